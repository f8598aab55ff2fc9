import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { WebSocketServer } from 'ws';
import type { RawData, WebSocket } from 'ws';
import type { AccountRecord, TierName } from '../../schemas/index.js';
import { ApiError } from '../errors.js';
import type { AccessLeases, AuthenticatedKey, KeyStore } from '../accounts/index.js';
import type { SessionAuth, SessionKey } from '../session/index.js';
import { TIERS, allowedBooks } from '../../schemas/index.js';
import { jsonArray, wsMessage } from './frames.js';
import type { Rendered } from './frames.js';
import { GAMESTATE_CHANNEL, GameStateSource } from './gamestate-source.js';
import type { GameStateSpec } from './gamestate-source.js';
import type { Group, StreamConnection } from './hub.js';
import type { AccountRates } from './account-rates.js';
import type { StreamService } from './service.js';
import { LIST_NAMES } from './opportunity-source.js';
import type { SnapshotRow } from './odds-source.js';
import { HeldFrames, RowsFrame, sendInTurns } from './progressive.js';
import type { SnapshotBody } from './progressive.js';
import { LIST_FEATURE, STREAM_MIN_EV, STREAM_MIN_PROFIT, allowedLists, tooManyStreams } from './subscription.js';
import type { StreamRequest } from './subscription.js';
import { channelList } from './channel-list.js';
import { EvRowFields } from './ev-row-fields.js';
import { hasFeature } from '../queries/index.js';
import type { EvRowFilterQuery } from '../queries/index.js';
import { callerCommission, commissionFilter } from '../queries/index.js';
import { stateOf } from '../deeplinks/index.js';
import { whenKnown } from '../contract/index.js';

export const WS_PROTOCOL = 'sharpapi-v1';
/** Paths that upgrade to the WebSocket endpoint (COMPAT: the channel address `/`; the game-state page writes `/ws`). */
export const WS_PATHS = new Set(['/', '/ws', '/api/v1/ws', '/api/v1/stream/ws']);
export const WS_CHANNELS = ['odds', 'ev', 'arbitrage', 'middles', 'low_hold', 'gamestate', 'splits', 'alerts'] as const;
const OPPORTUNITY_SNAPSHOT_CHUNK = 300;
const INITIAL_CHUNK = 1000;
/** Largest client message; subscriptions are small. */
const MAX_CLIENT_MESSAGE = 64 * 1024;

export const CLOSE = { authFailed: 4001, noAccess: 4003, tooManyStreams: 4029, invalidFilter: 1008, tryAgainLater: 1013 } as const;

type Params = Record<string, string | undefined>;
/** Send options of every message: text, also when its bytes come as a Buffer (frames shared by a group). */
const TEXT_MESSAGE = { binary: false } as const;

/** Filters and channels of a WebSocket subscription, as the query string or a `subscribe` message give them. */
interface WsSubscription {
  channels: string[] | null;
  sport?: string;
  league?: string;
  sportsbook?: string;
  market?: string;
  event?: string;
  minEv: number;
  minProfit: number;
  minOdds?: number;
  maxOdds?: number;
  evRow?: EvRowFilterQuery;
  state?: string;
  include?: 'suspicious';
  commission?: number;
}

function num(field: string, v: unknown): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isFinite(n)) throw new ApiError('invalid_request', `Invalid filter '${field}': must be a number`);
  return n;
}

/** A list given as an array or a comma string; anything else is a bad filter. */
function csvOf(field: string, v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v.length > 0 ? v : undefined;
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.length > 0 ? v.join(',') : undefined;
  throw new ApiError('invalid_request', `Invalid filter '${field}': must be a string or an array of strings`);
}

/** The US state for deep links, checked as REST checks it. */
function stateFilter(v: unknown): string | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw new ApiError('invalid_request', "Invalid filter 'state': must be a string");
  return stateOf(v, 'filter');
}

/** `include`, checked as REST's enum checks it: `suspicious` or nothing. */
function includeFilter(v: unknown): 'suspicious' | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (v !== 'suspicious') throw new ApiError('invalid_request', "Invalid filter 'include': must be 'suspicious'");
  return v;
}

function channelsOf(v: unknown): string[] | null {
  const text = csvOf('channels', v);
  if (text === undefined) return null;
  const names = channelList(text, WS_CHANNELS, "filter 'channels'");
  return names.length > 0 ? names : null;
}

function fromQuery(p: Params, evRows: EvRowFields): WsSubscription {
  return {
    channels: channelsOf(p['channels'] ?? p['channel']),
    sport: csvOf('sport', p['sport']),
    league: csvOf('league', p['league']),
    sportsbook: csvOf('sportsbook', p['sportsbook']),
    market: csvOf('market', p['market']),
    event: csvOf('event_id', p['event_id'] ?? p['event'] ?? p['eventId']),
    minEv: num('min_ev', p['min_ev']) ?? STREAM_MIN_EV,
    minProfit: num('min_profit', p['min_profit']) ?? STREAM_MIN_PROFIT,
    minOdds: num('min_odds', p['min_odds']),
    maxOdds: num('max_odds', p['max_odds']),
    ...whenKnown(
      'evRow',
      evRows.of((name) => p[name]),
    ),
    ...whenKnown('state', stateFilter(p['state'])),
    ...whenKnown('include', includeFilter(p['include'])),
    ...whenKnown('commission', commissionFilter(num('commission', p['commission']))),
  };
}

/** A `subscribe` message: plural array keys (AsyncAPI) or singular ones (a documented example); omitted channels stay. */
function fromMessage(m: Record<string, unknown>, current: WsSubscription, evRows: EvRowFields): WsSubscription {
  const raw = m['filters'];
  if (raw !== undefined && (raw === null || typeof raw !== 'object' || Array.isArray(raw)))
    throw new ApiError('invalid_request', "Invalid filter 'filters': must be an object");
  const f = Object.assign(Object.create(null) as Record<string, unknown>, raw ?? {});
  const pick = (...names: string[]): unknown => names.map((n) => f[n]).find((v) => v !== undefined);
  return {
    channels: m['channels'] === undefined ? current.channels : channelsOf(m['channels']),
    sport: csvOf('sports', pick('sports', 'sport')),
    league: csvOf('leagues', pick('leagues', 'league')),
    sportsbook: csvOf('sportsbooks', pick('sportsbooks', 'sportsbook')),
    market: csvOf('markets', pick('markets', 'market')),
    event: csvOf('eventIds', pick('eventIds', 'event_ids', 'event_id', 'event')),
    minEv: num('min_ev', pick('min_ev')) ?? STREAM_MIN_EV,
    minProfit: num('min_profit', pick('min_profit')) ?? STREAM_MIN_PROFIT,
    minOdds: num('min_odds', pick('min_odds')),
    maxOdds: num('max_odds', pick('max_odds')),
    ...whenKnown('evRow', evRows.of(pick)),
    ...whenKnown('state', stateFilter(pick('state'))),
    ...whenKnown('include', includeFilter(pick('include'))),
    ...whenKnown('commission', commissionFilter(num('commission', pick('commission')))),
  };
}

/**
 * The subscription in the streams' terms; `accountId` is the connection's, whose alerts `alerts`
 * carries, and `account` its record, whose own commission rate is the default of `commission`.
 */
function toRequest(s: WsSubscription, tier: TierName, accountId: string, account: AccountRecord | undefined): StreamRequest {
  const channels = s.channels;
  const commission = callerCommission(s.commission, account);
  // Without channels: everything the tier may stream (odds, and its opportunity lists); alerts only when named.
  const lists = channels === null ? allowedLists(tier) : LIST_NAMES.filter((l) => channels.includes(l));
  return {
    odds: channels === null || channels.includes('odds'),
    lists,
    gamestate: channels !== null && channels.includes('gamestate'),
    splits: channels !== null && channels.includes('splits') ? 'named' : false,
    ...(s.sport === undefined ? {} : { sport: s.sport }),
    ...(s.league === undefined ? {} : { league: s.league }),
    ...(s.sportsbook === undefined ? {} : { sportsbook: s.sportsbook }),
    ...(s.market === undefined ? {} : { market: s.market }),
    ...(s.event === undefined ? {} : { event: s.event }),
    ...(s.minOdds === undefined ? {} : { minOdds: s.minOdds }),
    ...(s.maxOdds === undefined ? {} : { maxOdds: s.maxOdds }),
    minEv: s.minEv,
    minProfit: s.minProfit,
    ...(s.evRow === undefined ? {} : { evRow: s.evRow }),
    ...(s.state === undefined ? {} : { state: s.state }),
    ...(s.include === undefined ? {} : { include: s.include }),
    ...(channels !== null && channels.includes('alerts') ? { alerts: accountId } : {}),
    ...(commission === undefined ? {} : { commission }),
  };
}

/** A tier refusal's `tier` and `required_tier`, which error frames carry as REST's envelope does. */
function tierExtras(err: ApiError): Record<string, unknown> {
  const { tier, required_tier: requiredTier } = err.extras;
  return { ...(tier === undefined ? {} : { tier }), ...(requiredTier === undefined ? {} : { required_tier: requiredTier }) };
}

type Reject = (code: string, message: string, close: number, extras?: Record<string, unknown>) => void;
/** How long a connection without a key may wait before its `auth` message. */
const AUTH_TIMEOUT_MS = 10_000;

/** A client message as an object, or null when it is not a JSON object. */
function messageOf(data: RawData, isBinary: boolean): Record<string, unknown> | null {
  let m: unknown;
  try {
    m = JSON.parse(isBinary ? '' : String(data));
  } catch {
    return null;
  }
  return m === null || typeof m !== 'object' || Array.isArray(m) ? null : (m as Record<string, unknown>);
}

function withoutType(msg: Record<string, unknown>): Record<string, unknown> {
  const rest: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [k, v] of Object.entries(msg)) if (k !== 'type') rest[k] = v;
  return rest;
}

function keyOf(req: IncomingMessage, url: URL): string | undefined {
  const header = req.headers['x-api-key'];
  if (typeof header === 'string' && header.length > 0) return header;
  const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (m?.[1]) return m[1].trim();
  return url.searchParams.get('api_key') ?? undefined;
}

class WsConnection implements StreamConnection {
  private seq = 0;
  private dead = false;
  group: Group | null = null;
  sub: WsSubscription;
  /** Bytes of the initial snapshot, which the client may be behind on besides the bound. */
  allowance = 0;
  /** Bumped by every (re)start, so a snapshot still being sent for an older subscription stops. */
  generation = 0;
  /** Live frames waiting for the snapshot being sent (null once live). */
  private held: HeldFrames<Rendered> | null = null;

  constructor(
    public keyId: string,
    readonly accountId: string,
    readonly tier: TierName,
    private readonly ws: WebSocket,
    private readonly maxBytes: number,
    sub: WsSubscription,
    private readonly onDead: () => void,
  ) {
    this.sub = sub;
  }

  /** Still worth writing to. */
  get open(): boolean {
    return !this.dead && this.ws.readyState === this.ws.OPEN;
  }

  /** True while a snapshot is being sent. */
  get snapshotting(): boolean {
    return this.held !== null;
  }

  /** A message outside the sequence (connected, subscribed, snapshots, pong, errors). */
  send(type: string, fields: Record<string, unknown>, globalSeq: number, timestamp: string): void {
    this.raw(JSON.stringify({ type, seq: ++this.seq, ...fields, global_seq: globalSeq, timestamp }));
  }

  /** Like `send`, with the fields already serialized (a JSON fragment without braces). */
  sendFragment(type: string, fragment: string, globalSeq: number, timestamp: string): void {
    this.raw(`{"type":${JSON.stringify(type)},"seq":${++this.seq},${fragment},"global_seq":${globalSeq},"timestamp":"${timestamp}"}`);
  }

  /** A snapshot message: its bytes do not count against the bound. */
  sendInitial(type: string, fragment: string, globalSeq: number, timestamp: string): void {
    this.allowance += fragment.length + 100;
    this.sendFragment(type, fragment, globalSeq, timestamp);
  }

  /** From now until `goLive`, live frames wait (a snapshot is being sent); frames held for an earlier subscription are dropped. */
  holdLive(): void {
    this.held = new HeldFrames();
  }

  goLive(): void {
    const held = this.held?.take() ?? [];
    this.held = null;
    for (const f of held) this.raw(wsMessage(++this.seq, f.wsTail, false));
  }

  deliver(frame: Rendered, replay: boolean): void {
    if (this.held && !replay && !this.dead) {
      this.held.push(frame, frame.wsTail.length);
      if (this.held.bytes > this.maxBytes) this.backpressure();
      return;
    }
    this.raw(wsMessage(++this.seq, frame.wsTail, replay));
  }

  heartbeat(seq: number, timestamp: string): void {
    // global_seq is an integer (COMPAT): the WebSocket has no room for a log position.
    if (this.held) return;
    this.raw(`{"seq":${++this.seq},"type":"heartbeat","global_seq":${seq},"timestamp":"${timestamp}"}`);
  }

  /** Writes one message: a string, or a Buffer holding a text message's UTF-8 bytes. */
  private raw(text: string | Buffer): void {
    if (this.dead) return;
    this.ws.send(text, TEXT_MESSAGE);
    if (this.ws.bufferedAmount > this.maxBytes + this.allowance) this.backpressure();
  }

  private backpressure(): void {
    this.dead = true;
    this.ws.send(
      JSON.stringify({
        type: 'error',
        seq: ++this.seq,
        code: 'backpressure',
        message: `The client read too slowly: more than ${this.maxBytes} bytes were waiting. Reconnect with resume=true&from_seq.`,
      }),
    );
    this.ws.close(CLOSE.tryAgainLater, 'backpressure');
    setTimeout(() => this.ws.terminate(), 1000).unref();
    this.onDead();
  }

  /** Access ended (key revoked or expired, tier changed, signed out): told why, closed with 4001 and the reason, and cut if the client does not answer the close. */
  cut(reason: string, message: string): void {
    if (this.dead) return;
    this.dead = true;
    this.ws.send(JSON.stringify({ type: 'error', seq: ++this.seq, code: reason, message }));
    this.ws.close(CLOSE.authFailed, reason);
    setTimeout(() => this.ws.terminate(), 1000).unref();
    this.onDead();
  }

  fail(code: string, message: string, close: number): void {
    if (this.dead) return;
    this.dead = true;
    this.ws.send(JSON.stringify({ type: 'error', seq: ++this.seq, code, message }));
    this.ws.close(close, code);
  }

  end(): void {
    if (this.dead) return;
    this.dead = true;
    this.ws.close(1001, 'server shutting down');
  }
}

/**
 * The WebSocket endpoint on the API's own HTTP server (upgrade on `/`, `/ws`, `/api/v1/ws`),
 * subprotocol `sharpapi-v1`, key by `?api_key=`, `X-API-Key` or Bearer, or else the web
 * screen's session cookie (it reaches the `/api/v1/…` paths) from a page of this server.
 */
export function attachWebSocket(
  app: FastifyInstance,
  service: StreamService,
  keys: KeyStore,
  access: AccessLeases,
  rates: AccountRates,
  sessions?: Pick<SessionAuth, 'authenticateUpgrade'>,
): WebSocketServer {
  const hub = service.hub;
  const evRows = new EvRowFields(app);
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_CLIENT_MESSAGE,
    handleProtocols: (protocols) => (protocols.has(WS_PROTOCOL) ? WS_PROTOCOL : false),
  });
  const now = (): string => new Date(Date.now()).toISOString();

  app.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (!WS_PATHS.has(url.pathname.replace(/\/+$/, '') || '/')) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => accept(ws, req, url));
  });

  function accept(ws: WebSocket, req: IncomingMessage, url: URL): void {
    const reject = (code: string, message: string, close: number, extras: Record<string, unknown> = {}): void => {
      ws.send(JSON.stringify({ type: 'error', seq: 1, code, message, ...extras, timestamp: now() }));
      ws.close(close, code);
    };
    // A key presented by the client wins; without one, the session cookie (the same store and
    // key lookup as REST), which must come from this server's own pages.
    const key = keyOf(req, url);
    let record: AuthenticatedKey | undefined;
    let signedIn: SessionKey | undefined;
    try {
      signedIn = key === undefined ? sessions?.authenticateUpgrade(req) : undefined;
      record = key === undefined ? signedIn?.key : keys.lookup(key);
    } catch (err) {
      const refusal = err instanceof ApiError && err.code === 'cross_site_request' ? 'cross_site_request' : 'invalid_api_key';
      reject(refusal, err instanceof Error ? err.message : 'Authentication failed', CLOSE.authFailed);
      return;
    }
    if (!record && key !== undefined) {
      reject('invalid_api_key', 'The API key is not valid', CLOSE.authFailed);
      return;
    }
    if (!record) awaitAuth(ws, url, reject);
    else begin(ws, url, record, signedIn, reject);
  }

  /**
   * A connection without a key (nor a session) may send it as its first message, `auth` with
   * `token`, within AUTH_TIMEOUT_MS; until then other messages get `not_authenticated`. The key
   * is looked up and leased exactly as one given on the handshake.
   */
  function awaitAuth(ws: WebSocket, url: URL, reject: Reject): void {
    const timer = setTimeout(
      () =>
        reject(
          'missing_token',
          `No auth message within ${AUTH_TIMEOUT_MS / 1000} s: send {"type":"auth","token":"<API key>"}, or give the key on the handshake (api_key, X-API-Key or Authorization: Bearer), or the session cookie of a signed-in page of this server`,
          CLOSE.authFailed,
        ),
      AUTH_TIMEOUT_MS,
    );
    timer.unref();
    const pending = (data: RawData, isBinary: boolean): void => {
      const msg = messageOf(data, isBinary);
      const say = (code: string, message: string): void =>
        ws.send(JSON.stringify({ type: 'error', seq: 0, code, message, timestamp: now() }));
      if (!msg) return say('invalid_message', 'Messages are JSON objects with a type');
      if (msg['type'] === 'ping') return void ws.send(JSON.stringify({ type: 'pong', seq: 0, timestamp: now() }));
      if (msg['type'] !== 'auth') return say('not_authenticated', 'Authenticate first: {"type":"auth","token":"<API key>"}');
      const token = msg['token'] ?? msg['api_key'];
      if (typeof token !== 'string' || token.length === 0) return say('missing_token', "The auth message needs 'token': the API key");
      ws.off('message', pending);
      clearTimeout(timer);
      const record = keys.lookup(token);
      if (!record) return reject('invalid_api_key', 'The API key is not valid', CLOSE.authFailed);
      begin(ws, url, record, undefined, reject);
    };
    ws.on('message', pending);
    ws.on('close', () => clearTimeout(timer));
  }

  /** An authenticated connection: the subscription of the query string, its lease, `connected`, then the stream. */
  function begin(ws: WebSocket, url: URL, record: AuthenticatedKey, signedIn: SessionKey | undefined, reject: Reject): void {
    const tier = record.tier;
    const params: Params = Object.create(null) as Params;
    for (const [k, v] of url.searchParams) params[k] = v;
    let sub: WsSubscription;
    let opened: { group: Group };
    try {
      sub = fromQuery(params, evRows);
      opened = service.open(tier, toRequest(sub, tier, record.accountId, keys.account(record.accountId)));
    } catch (err) {
      if (err instanceof ApiError && err.code === 'feature_required')
        reject('tier_restricted', err.message, CLOSE.noAccess, tierExtras(err));
      else reject('invalid_filter', err instanceof Error ? err.message : 'Invalid filter', CLOSE.invalidFilter);
      return;
    }
    // The newer stream wins: past the cap, the account's oldest streams are ended first (4001, displaced).
    access.makeRoomForStream(record.accountId, hub.streamCap(tier, record.accountId));
    if (!hub.acquire(record.accountId, tier)) {
      reject('too_many_streams', tooManyStreams(tier), CLOSE.tooManyStreams);
      return;
    }
    // Assigned below; the close handlers may run before (a key revoked while this stream opened).
    let lease = (): void => undefined;
    const leaseOf = (key: AuthenticatedKey): (() => void) =>
      access.hold({
        keyId: key.keyId,
        accountId: key.accountId,
        tier,
        ...(signedIn ? { session: { id: signedIn.session.id, expiresAt: signedIn.session.expiresAt } } : {}),
        stream: conn,
        end: (reason, message) => conn.cut(reason, message),
      });
    let unfollow = (): void => undefined;
    const closed = (): void => {
      hub.leave(conn, conn.group);
      hub.release(conn);
      lease();
      unfollow();
    };
    const conn: WsConnection = new WsConnection(record.keyId, record.accountId, tier, ws, service.settings.bufferBytes, sub, closed);
    hub.track(conn);
    lease = leaseOf(record);
    ws.on('close', closed);
    if (!conn.open) return;
    // Without a `commission` of its own the subscription is at the account's rate: a new rate
    // moves it to a subscription at that rate, as a `subscribe` would (subscribed, a fresh snapshot).
    unfollow = rates.follow(record.accountId, (account) => {
      if (!conn.open || conn.sub.commission !== undefined || conn.group === null) return;
      const group = service.open(tier, toRequest(conn.sub, tier, conn.accountId, account)).group;
      if (group === conn.group) return;
      hub.leave(conn, conn.group);
      start(conn, group, null, false);
    });
    ws.on('error', () => ws.terminate());
    const books = TIERS[tier].maxSportsbooks;
    conn.send(
      'connected',
      {
        message: 'Connected',
        stream_id: randomUUID(),
        tier,
        features: {
          ev: hasFeature(tier, 'ev'),
          arbitrage: hasFeature(tier, 'arbitrage'),
          middles: hasFeature(tier, 'middles'),
          low_hold: hasFeature(tier, LIST_FEATURE.low_hold),
        },
        channels: sub.channels,
        data_delay_seconds: TIERS[tier].dataDelaySeconds,
        books: { max: books ?? -1, allowed: books === null ? null : [...allowedBooks(tier, service.books())].sort() },
        replay_window: { frames: service.settings.replayFrames, seconds: Math.round(service.settings.replayMs / 1000) },
      },
      hub.head,
      now(),
    );
    const fromSeq = params['from_seq'];
    const resumeAt = params['resume'] === 'true' && fromSeq !== undefined && /^\d{1,16}$/.test(fromSeq) ? Number(fromSeq) : null;
    start(conn, opened.group, resumeAt, params['resume'] === 'true');

    ws.on('message', (data, isBinary) => {
      const msg = messageOf(data, isBinary);
      const say = (code: string, message: string): void => conn.send('error', { code, message }, hub.head, now());
      if (!msg) return say('invalid_message', 'Messages are JSON objects with a type');
      switch (msg['type']) {
        case 'ping':
          conn.send('pong', {}, hub.head, now());
          return;
        case 'auth':
          return say('already_authenticated', 'This connection is already authenticated; refresh_token changes its key');
        case 'refresh_token': {
          const token = msg['token'];
          if (typeof token !== 'string' || token.length === 0)
            return say('missing_token', "The refresh_token message needs 'token': the new API key");
          const next = keys.lookup(token);
          if (!next) return say('invalid_token', 'The new API key is not valid; the connection keeps its key');
          if (next.accountId !== conn.accountId || next.tier !== tier)
            return say('invalid_token', 'The new API key must be of the same account and tier; open a new connection for another');
          // The new lease first: the connection is never without one, and revoking either key ends it until the swap.
          const previous = lease;
          lease = leaseOf(next);
          previous();
          conn.keyId = next.keyId;
          conn.send('token_refreshed', { key_id: next.keyId }, hub.head, now());
          return;
        }
        case 'subscribe':
        case 'unsubscribe':
        case 'filter': {
          if (msg['type'] !== 'filter' && msg['channels'] !== undefined && channelsOf(msg['channels']) === null)
            return say('missing_channels', `A ${String(msg['type'])} message with channels names at least one`);
          if (msg['type'] === 'unsubscribe' && msg['channels'] === undefined)
            return say('missing_channels', 'unsubscribe names the channels to drop');
          let next: WsSubscription;
          let group: Group;
          try {
            // filter: new filters, the channels unchanged (given flat or under `filters`).
            if (msg['type'] === 'filter') next = fromMessage({ filters: msg['filters'] ?? withoutType(msg) }, conn.sub, evRows);
            else if (msg['type'] === 'subscribe') next = fromMessage(msg, conn.sub, evRows);
            else {
              const drop = new Set(channelsOf(msg['channels']) ?? []);
              const current = conn.sub.channels ?? ['odds', ...allowedLists(tier)];
              next = { ...conn.sub, channels: current.filter((c) => !drop.has(c)) };
            }
            group = service.open(tier, toRequest(next, tier, conn.accountId, keys.account(conn.accountId))).group;
          } catch (err) {
            const gated = err instanceof ApiError && err.code === 'feature_required';
            const message = err instanceof Error ? err.message : 'Invalid filter';
            conn.send(
              'error',
              { code: gated ? 'tier_restricted' : 'invalid_filter', message, ...(gated ? tierExtras(err) : {}) },
              hub.head,
              now(),
            );
            return;
          }
          hub.leave(conn, conn.group);
          conn.sub = next;
          // A narrower set needs no snapshot: what the client holds already equals the new group's state.
          start(conn, group, null, false, msg['type'] === 'unsubscribe');
          return;
        }
        default:
          conn.send(
            'error',
            {
              code: 'unknown_message_type',
              message: `Unknown message type ${JSON.stringify(msg['type'])}; types: subscribe, unsubscribe, filter, refresh_token, ping`,
            },
            hub.head,
            now(),
          );
      }
    });
  }

  /** subscribed, then the replay (resume inside the window) or the snapshot, then live frames. */
  function start(conn: WsConnection, group: Group, resumeAt: number | null, resumeAsked: boolean, skipSnapshot = false): void {
    const head = hub.head;
    const ts = now();
    const r = toRequest(conn.sub, conn.tier, conn.accountId, keys.account(conn.accountId));
    const generation = ++conn.generation;
    const list = (v: string | undefined): string[] | null =>
      v === undefined
        ? null
        : v
            .split(',')
            .map((s) => s.trim())
            .filter((s) => s.length > 0);
    conn.send(
      'subscribed',
      {
        channels: conn.sub.channels,
        sports: list(r.sport),
        sportsbooks: list(r.sportsbook),
        leagues: list(r.league),
        markets: list(r.market),
        eventIds: list(r.event),
        min_ev: r.minEv,
        min_profit: r.minProfit,
      },
      head,
      ts,
    );
    // A narrower set needs no snapshot, unless the last one is still being sent (the client holds part of it).
    if (skipSnapshot && !conn.snapshotting) {
      hub.join(conn, group);
      conn.group = group;
      return;
    }
    if (resumeAt !== null && hub.canResume(group, resumeAt)) {
      const frames: Rendered[] = [];
      hub.window.forEachAfter(resumeAt, group, (_s, f) => frames.push(f));
      conn.allowance += frames.reduce((n, f) => n + f.wsTail.length, 0);
      for (const f of frames) conn.deliver(f, true);
      conn.send('snapshot:complete', { books: [], resumed: true, progressive: false, resync: false, replayed: frames.length }, head, ts);
      hub.join(conn, group);
      conn.group = group;
      return;
    }
    // Built once per group version and shared by the members joining at it; each adds only its
    // own seq. Sent over as many turns as it takes; live frames wait for snapshot:complete.
    const messages = service.shared(group, `ws|${resumeAsked}`, () => snapshotMessages(group, resumeAsked));
    conn.holdLive();
    hub.join(conn, group);
    conn.group = group;
    const current = (): boolean => conn.open && conn.generation === generation;
    void sendInTurns(
      messages.length,
      (i) => {
        const [type, fragment] = messages[i] as SnapshotBody;
        conn.sendInitial(type, fragment(), head, ts);
      },
      current,
      service.settings.snapshotTurnMs,
      (i) => messages[i]?.[2],
    ).then((sent) => {
      if (sent) conn.goLive();
    });
  }

  /** A group's snapshot as WebSocket messages `[type, fields]`, `snapshot:complete` last; odds chunks are presented when first sent. */
  function snapshotMessages(group: Group, resumeAsked: boolean): SnapshotBody[] {
    const snap = service.snapshot(group);
    const messages: SnapshotBody[] = [];
    for (const l of snap.lists ?? []) {
      const total = Math.max(1, Math.ceil(l.rows.length / OPPORTUNITY_SNAPSHOT_CHUNK));
      for (let c = 0; c < total; c++) {
        const rows = l.rows.slice(c * OPPORTUNITY_SNAPSHOT_CHUNK, (c + 1) * OPPORTUNITY_SNAPSHOT_CHUNK);
        const fragment = `${JSON.stringify(l.list)}:${jsonArray(rows)},"chunk":${c + 1},"totalChunks":${total}`;
        messages.push(['opportunities_snapshot', () => fragment]);
      }
    }
    const books: string[] = [];
    if (snap.odds) {
      const byBook = new Map<string, SnapshotRow[]>();
      for (const row of snap.odds) {
        const rows = byBook.get(row.book) ?? [];
        rows.push(row);
        byBook.set(row.book, rows);
      }
      for (const [book, rows] of [...byBook].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
        books.push(book);
        for (let i = 0; i < rows.length; i += INITIAL_CHUNK) {
          const chunk = rows.slice(i, i + INITIAL_CHUNK);
          const frame = new RowsFrame(chunk, (joined) => `"source":${JSON.stringify(book)},"data":[${joined}],"count":${chunk.length}`);
          messages.push(['initial', frame.text, frame]);
        }
      }
    }
    if (snap.games) {
      const sse = GameStateSource.snapshotPayload(
        (group.spec.channels.get(GAMESTATE_CHANNEL) as GameStateSpec).sport,
        snap.games,
        resumeAsked,
      );
      messages.push(['gamestate:snapshot', () => sse.slice(1, -1)]);
    }
    if (snap.splits) {
      const rows = snap.splits;
      for (let i = 0; i === 0 || i < rows.length; i += INITIAL_CHUNK) {
        const chunk = rows.slice(i, i + INITIAL_CHUNK);
        const fragment = `"data":${jsonArray(chunk)},"count":${chunk.length},"total":${rows.length},"offset":${i},"has_more":${i + INITIAL_CHUNK < rows.length}`;
        messages.push(['splits:snapshot', () => fragment]);
      }
    }
    const complete = JSON.stringify({
      books,
      resumed: false,
      progressive: false,
      resync: resumeAsked,
      total_odds: snap.odds?.length ?? 0,
      ...(snap.games ? { total_games: snap.games.length } : {}),
      ...(snap.splits ? { total_splits: snap.splits.length } : {}),
    });
    messages.push(['snapshot:complete', () => complete.slice(1, -1)]);
    return messages;
  }

  app.addHook('preClose', (done) => {
    for (const ws of wss.clients) ws.close(1001, 'server shutting down');
    done();
  });
  app.addHook('onClose', (_app, done) => {
    for (const ws of wss.clients) ws.terminate();
    wss.close(() => done());
  });
  return wss;
}
