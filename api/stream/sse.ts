import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AccessLeases } from '../accounts/index.js';
import { authErrorResponses, csvParam, errorResponse, notFoundResponse } from '../contract/index.js';
import { ApiError } from '../errors.js';
import { tierOf } from '../plugins/index.js';
import { TIERS } from '../../schemas/index.js';
import type { AccountRecord } from '../../schemas/index.js';
import type { AccountRates } from './account-rates.js';
import { jsonArray } from './frames.js';
import type { Rendered } from './frames.js';
import { GAMESTATE_CHANNEL, GameStateSource } from './gamestate-source.js';
import type { GameStateSpec } from './gamestate-source.js';
import type { Group, StreamConnection } from './hub.js';
import type { StreamService } from './service.js';
import { HeldFrames, RowsFrame, sendInTurns } from './progressive.js';
import type { Piecewise, SnapshotBody } from './progressive.js';
import { allowedLists, filterEcho, tooManyStreams } from './subscription.js';
import type { StreamRequest } from './subscription.js';
import { channelList } from './channel-list.js';
import { callerCommission, featureRefusal, hasFeature } from '../queries/index.js';
import type { EvRowFilterQuery, LogCatchUp } from '../queries/index.js';
import { parseFrameId } from './frame-id.js';
import { commissionParam, evRowFilterParams } from '../contract/index.js';
import type { QueryOf } from '../contract/index.js';
import { deepLinkStateParam } from '../deeplinks/index.js';
import { EV_ROW_FIELDS } from './ev-row-fields.js';

export const SSE_CHANNELS = ['opportunities', 'odds', 'all', 'gamestate', 'splits', 'alerts'] as const;
type SseChannel = (typeof SSE_CHANNELS)[number];
/** A snapshot frame to send: rendered with its id when sent, and how to build its body in pieces ahead. */
type SnapshotFrame = [() => Rendered, Piecewise | undefined];
/** Rows (odds) or items (opportunities) per snapshot frame. */
export const SNAPSHOT_CHUNK = 1000;
export const RETRY_MS = 3000;

/** The query every SSE route takes (they share one schema, `querySchema` below). */
type SseQuery = QueryOf<'/api/v1/stream'>;

const querySchema = {
  type: 'object',
  properties: {
    channel: {
      type: 'string',
      maxLength: 200,
      description: `${SSE_CHANNELS.join(', ')} (default opportunities); two or more collapse to all (alerts stays beside them: all never includes it unless named). Aliases: channels, type. gamestate: Enterprise only; alerts: the account's own alert rules' alerts, from the tiers that may hold rules.`,
    },
    channels: { type: 'string', maxLength: 200, description: 'Alias of channel.' },
    type: { type: 'string', maxLength: 200, description: 'Alias of channel (the TypeScript SDK sends it).' },
    sport: csvParam('Sport ids, comma-separated.'),
    league: csvParam('League ids, comma-separated.'),
    sportsbook: csvParam("Sportsbook ids, comma-separated; default: the tier's books. channel=splits: draftkings, circa."),
    market: csvParam(
      'Market ids (odds); opportunities also take the categories main, spread, total, props; channel=splits: spread, total, moneyline.',
    ),
    event: csvParam('Event ids, comma-separated. Aliases: eventId, event_id.'),
    eventId: csvParam('Alias of event.'),
    event_id: csvParam('Alias of event.'),
    live: { type: 'boolean', description: 'true: live events only; false: pre-match only.' },
    min_ev: { type: 'number', minimum: -100, maximum: 1000, description: 'Minimum +EV %, default 2.' },
    min_profit: { type: 'number', minimum: 0, maximum: 1000, description: 'Minimum arbitrage profit %, default 0.5.' },
    state: deepLinkStateParam,
    include: {
      type: 'string',
      enum: ['suspicious'],
      description: 'suspicious: also the phantom opportunities the lists leave out by default, as on the REST lists.',
    },
    // The +EV list's row filters, as on /opportunities/ev (they narrow only the ev list).
    ...evRowFilterParams,
    commission: commissionParam,
    last_event_id: {
      type: 'string',
      maxLength: 1000,
      description: 'Resume position (the last frame id seen), for clients that cannot send the Last-Event-ID header.',
    },
  },
} as const;

/**
 * The channel a request names, and whether it names `alerts`: alerts are the account's own, so
 * they join whatever else is named (odds and alerts is the odds stream with the account's alerts)
 * and are never part of `all` unless named.
 */
function parseChannel(q: SseQuery, fixed: SseChannel | null): { channel: SseChannel; alerts: boolean } {
  if (fixed) return { channel: fixed, alerts: fixed === 'alerts' };
  const raw = q.channel ?? q.channels ?? q.type;
  if (raw === undefined) return { channel: 'opportunities', alerts: false };
  const names = new Set(channelList(raw, SSE_CHANNELS, "query parameter 'channel'"));
  const alerts = names.delete('alerts');
  if (names.size === 0) return { channel: alerts ? 'alerts' : 'opportunities', alerts };
  if (names.size > 1) return { channel: 'all', alerts };
  return { channel: [...names][0] as SseChannel, alerts };
}

export function sseRequest(
  q: SseQuery,
  channel: SseChannel,
  tier: Parameters<typeof allowedLists>[0],
  eventId?: string,
  /** The caller's account, when it asked for its alerts too. */
  alertsOf?: string,
): StreamRequest {
  const lists = channel === 'opportunities' || channel === 'all' ? allowedLists(tier) : [];
  if (channel === 'opportunities' && lists.length === 0) {
    throw featureRefusal('The opportunities stream', 'arbitrage', tier);
  }
  const event = eventId ?? q.event ?? q.eventId ?? q.event_id;
  return {
    odds: channel === 'odds' || channel === 'all',
    lists,
    gamestate: channel === 'gamestate' || (channel === 'all' && hasFeature(tier, 'gamestate')),
    splits: channel === 'splits' ? 'named' : channel === 'all' ? 'all' : false,
    ...(q.sport === undefined ? {} : { sport: q.sport }),
    ...(q.league === undefined ? {} : { league: q.league }),
    ...(q.sportsbook === undefined ? {} : { sportsbook: q.sportsbook }),
    ...(q.market === undefined ? {} : { market: q.market }),
    ...(event === undefined ? {} : { event }),
    ...(q.live === undefined ? {} : { live: q.live }),
    minEv: q.min_ev ?? 2,
    minProfit: q.min_profit ?? 0.5,
    ...evRowOf(q),
    ...(q.state === undefined ? {} : { state: q.state }),
    ...(q.include === undefined ? {} : { include: q.include }),
    ...(alertsOf === undefined ? {} : { alerts: alertsOf }),
    ...(q.commission === undefined ? {} : { commission: q.commission }),
  };
}

/** The request at the account's rate now (none: the board's), for a stream that follows it. */
function atAccountRate(req: StreamRequest, account: AccountRecord): StreamRequest {
  const { commission: _previous, ...rest } = req;
  const rate = callerCommission(undefined, account);
  return rate === undefined ? rest : { ...rest, commission: rate };
}

/** The +EV row filters the query names, if any. */
function evRowOf(q: SseQuery): { evRow?: EvRowFilterQuery } {
  const evRow: Record<string, unknown> = {};
  for (const name of EV_ROW_FIELDS) if (q[name] !== undefined) evRow[name] = q[name];
  return Object.keys(evRow).length === 0 ? {} : { evRow: evRow as EvRowFilterQuery };
}

/** An SSE response as the hub sees it: bounded buffer, backpressure frame, then closed. */
class SseConnection implements StreamConnection {
  private dead = false;
  private closed = false;
  private lastId: string;
  /** Bytes of the initial snapshot or replay, which the client is allowed to be behind on too. */
  allowance = 0;
  /** Live frames waiting for the snapshot being sent (null once live). */
  private held: HeldFrames<Rendered> | null = null;
  /** Bumped by each snapshot begun: a snapshot superseded by a later one (a new rate) stops sending. */
  snapshots = 0;

  constructor(
    readonly keyId: string,
    readonly accountId: string,
    private readonly res: ServerResponse,
    private readonly maxBytes: number,
    start: string,
    private readonly onDead: () => void,
    /** Its group's frame ids name log positions: so must its heartbeats'. */
    private readonly positional = false,
  ) {
    this.lastId = start;
    res.on('close', () => {
      this.closed = true;
    });
  }

  /** Still worth writing to. */
  get open(): boolean {
    return !this.dead && !this.closed;
  }

  write(frame: Rendered | string, id?: string): void {
    if (this.dead) return;
    this.res.write(frame instanceof Buffer || typeof frame === 'string' ? frame : frame.sse);
    if (id !== undefined) this.lastId = id;
    if (this.res.writableLength > this.maxBytes + this.allowance) this.backpressure();
  }

  /** A frame of the snapshot or replay: its bytes do not count against the bound. */
  writeInitial(frame: Rendered | string, id?: string): void {
    this.allowance += typeof frame === 'string' ? frame.length : frame.sse.length;
    this.write(frame, id);
  }

  /** From now until `goLive`, live frames wait (a snapshot is being sent). */
  holdLive(): void {
    this.held = new HeldFrames();
  }

  goLive(): void {
    const held = this.held?.take() ?? [];
    this.held = null;
    for (const f of held) this.write(f, f.id);
  }

  deliver(frame: Rendered): void {
    if (this.held && !this.dead) {
      this.held.push(frame, frame.sse.length);
      if (this.held.bytes > this.maxBytes) this.backpressure();
      return;
    }
    this.write(frame, frame.id);
  }

  heartbeat(seq: number, timestamp: string, logId: string | null): void {
    // Not in the middle of a snapshot: its id would be a resume point the client has not reached.
    if (this.held) return;
    const id = this.positional && logId !== null ? logId : String(seq);
    this.write(`id: ${id}\nevent: heartbeat\ndata: {"timestamp":"${timestamp}"}\n\n`, id);
  }

  /** Access ended (key revoked or expired, tier changed, signed out): told why, without an id (not a resume point), then closed. */
  cut(code: string, message: string): void {
    if (this.dead) return;
    this.dead = true;
    this.res.end(`event: error\ndata: ${JSON.stringify({ code, message })}\n\n`);
    this.onDead();
  }

  private backpressure(): void {
    this.dead = true;
    // Told why, with the position it can resume from; then closed, and cut if it never reads it.
    const message = `The client read too slowly: more than ${this.maxBytes} bytes were waiting. Reconnect with Last-Event-ID to resume.`;
    this.res.end(`id: ${this.lastId}\nevent: error\ndata: ${JSON.stringify({ code: 'backpressure', message })}\n\n`);
    // The response is over; the connection goes too (the client is not reading, keep-alive is moot).
    const socket = this.res.socket;
    setTimeout(() => socket?.destroy(), 1000).unref();
    this.onDead();
  }

  end(): void {
    if (this.dead) return;
    this.dead = true;
    this.res.end();
  }
}

/**
 * `GET /stream` (+ `/stream/{channel}` and `/stream/events/{eventId}`): Server-Sent Events. Errors
 * before the stream opens are the REST envelope (401, 400, 403, 429); then `connected`, the
 * snapshot (or, with `Last-Event-ID` inside the replay window, exactly the missed frames), deltas
 * and heartbeats.
 */
export const sseRoutes: FastifyPluginAsync<{ service: StreamService; access: AccessLeases; rates: AccountRates }> = async (
  app,
  { service, access, rates },
) => {
  const hub = service.hub;
  const description =
    'Server-Sent Events: `connected`, the snapshot in chunks, `snapshot:complete`, then deltas (`odds:update`, `odds:locked`, `odds:removed`, ' +
    '`ev:|arb:|middles:|low_hold:` + `detected|expired`, `gamestate:update|removed`, `splits:update|removed`, `alert:raised`) and `heartbeat`. Every frame has an `id`; reconnecting with ' +
    '`Last-Event-ID` replays exactly the missed frames from the replay window, or answers a fresh snapshot marked `resync`. See docs/api.md.';
  const responses = {
    200: {
      description:
        'An event stream (text/event-stream). OpenAPI has no way to type the frames of a stream, so the application/json entry describes one frame: its `id`, its `event` name and the JSON of its `data` line.',
      content: {
        'text/event-stream': { schema: { type: 'string' } },
        'application/json': {
          schema: {
            type: 'object',
            properties: {
              id: { type: 'string', description: 'Sequence number (a resume point), or `<n>-s<k>` on snapshot frames.' },
              event: {
                type: 'string',
                examples: [
                  'connected',
                  'snapshot',
                  'gamestate:snapshot',
                  'splits:snapshot',
                  'snapshot:complete',
                  'odds:update',
                  'odds:locked',
                  'odds:removed',
                  'ev:detected',
                  'arb:expired',
                  'gamestate:update',
                  'splits:update',
                  'alert:raised',
                  'heartbeat',
                  'error',
                ],
              },
              data: { type: ['object', 'array'], description: 'The frame payload; see docs/api.md, Streams.' },
            },
          },
        },
      },
    },
    ...authErrorResponses,
    429: errorResponse(
      "rate_limited, or too_many_streams when the account may hold no stream. Past its tier's number of concurrent streams a new one displaces the account's oldest (which gets an error frame 'displaced').",
    ),
  };

  const open =
    (fixed: SseChannel | null) =>
    async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
      const q = request.query as SseQuery;
      const tier = tierOf(request);
      const keyId = request.apiKey?.keyId ?? '';
      const accountId = request.apiKey?.accountId ?? '';
      const { channel, alerts } = parseChannel(q, fixed);
      const eventId = (request.params as { eventId?: string }).eventId;
      const req = sseRequest(q, channel, tier, eventId, alerts ? accountId : undefined);
      const lastHeader = request.headers['last-event-id'];
      const lastId = (typeof lastHeader === 'string' ? lastHeader : undefined) ?? q.last_event_id;
      const from = lastId === undefined ? null : parseFrameId(lastId, hub.run);
      let { group } = service.open(tier, req);
      const resumeAt = from?.seq != null && hub.canResume(group, from.seq) ? from.seq : null;
      // Not this run's window: the position in the log, read up to this board (a replica still
      // loading is waited for), then the group brought up to the board again in this turn.
      let read: LogCatchUp | null = null;
      if (resumeAt === null && from?.position) {
        const answer = await service.readSince(group, from.position);
        if (typeof answer !== 'string') {
          read = answer;
          group = service.open(tier, req).group;
        }
        // The client left while the log was read: nothing to open.
        if (request.raw.socket.destroyed) {
          reply.hijack();
          return;
        }
      }
      // The newer stream wins: past the cap, the account's oldest streams are ended first.
      access.makeRoomForStream(accountId, hub.streamCap(tier, accountId));
      if (!hub.acquire(accountId, tier)) {
        throw new ApiError('too_many_streams', tooManyStreams(tier));
      }
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      res.socket?.setNoDelay(true);
      const head = hub.head;
      // What the client is sent after `connected`: the frames it missed, from this run's replay
      // window or rebuilt from the log, or else a snapshot.
      const caughtUp = read ? service.catchUp(group, read) : null;
      const resumed = resumeAt !== null || caughtUp !== null;
      const headId = hub.frameId(head, group.positional ? hub.logPosition : null);
      // Assigned below; the close handlers may run before (a key revoked while this stream opened).
      let lease = (): void => undefined;
      let unfollow = (): void => undefined;
      const closed = (): void => {
        hub.leave(conn, group);
        hub.release(conn);
        lease();
        unfollow();
      };
      // Until snapshot:complete the client holds no resume point: a drop before it resyncs; a
      // drop during a resume resumes from where the client stood.
      const startId = resumed ? (lastId ?? '').trim() : `${head}-s0`;
      const conn = new SseConnection(keyId, accountId, res, service.settings.bufferBytes, startId, closed, group.positional);
      hub.track(conn);
      lease = access.hold({
        keyId,
        accountId,
        tier,
        ...(request.browserSession ? { session: request.browserSession } : {}),
        stream: conn,
        end: (reason, message) => conn.cut(reason, message),
      });
      if (!conn.open) return;
      res.on('close', closed);
      // Priced at the account's rate (no `commission` of its own): a new rate moves the stream to
      // a subscription at it, which starts over from a snapshot marked `resync`.
      if (!request.ownCommission) {
        unfollow = rates.follow(accountId, (account) => {
          if (!conn.open) return;
          const next = service.open(tier, atAccountRate(req, account)).group;
          if (next === group) return;
          hub.leave(conn, group);
          group = next;
          void sendSnapshot(conn, group, hub.head, hub.frameId(hub.head, group.positional ? hub.logPosition : null), true);
        });
      }
      conn.writeInitial(`retry: ${RETRY_MS}\n\n`);
      conn.writeInitial(
        hub.renderOne(startId, {
          name: 'connected',
          ...json({
            stream_id: randomUUID(),
            channel,
            ...(alerts && channel !== 'alerts' ? { alerts: true } : {}),
            tier,
            data_delay_seconds: TIERS[tier].dataDelaySeconds,
            filters: filterEcho(req),
            reconnected: lastId !== undefined,
            resumed,
            resync: lastId !== undefined && !resumed,
            replay_window: { frames: service.settings.replayFrames, seconds: Math.round(service.settings.replayMs / 1000) },
          }),
        }),
      );
      if (resumeAt !== null) {
        for (const f of replayFrames(group, resumeAt)) conn.writeInitial(f, f.id);
        hub.join(conn, group);
        return;
      }
      if (caughtUp !== null) {
        // Only the last frame moves the client's position on: a drop before it resumes from the old one.
        caughtUp.forEach((payload, i) => {
          const id = i === caughtUp.length - 1 ? headId : startId;
          conn.writeInitial(hub.renderOne(id, payload), id);
        });
        hub.join(conn, group);
        return;
      }
      await sendSnapshot(conn, group, head, headId, lastId !== undefined);
    };

  /**
   * The snapshot is the group's state now; live frames from now on wait for it, so a large one
   * goes out over many turns (connected first) without a gap or a duplicate. A function of its
   * own: closures made in `open` share one scope with the connection's close listeners, which
   * live as long as the connection, and a snapshot held there stayed in memory until the client
   * left (150 MB of a 500 MB heap with 1,000 subscribers).
   */
  async function sendSnapshot(conn: SseConnection, group: Group, head: number, headId: string, resync: boolean): Promise<void> {
    const snapshot = snapshotFrames(group, head, headId, resync);
    const generation = ++conn.snapshots;
    conn.holdLive();
    hub.join(conn, group);
    const sent = await sendInTurns(
      snapshot.length,
      (i) => {
        const frame = (snapshot[i] as SnapshotFrame)[0]();
        conn.writeInitial(frame, i === snapshot.length - 1 ? headId : undefined);
      },
      () => conn.open && conn.snapshots === generation,
      service.settings.snapshotTurnMs,
      (i) => snapshot[i]?.[1],
    );
    if (sent) conn.goLive();
  }

  function json(fields: Record<string, unknown>): { sse: string; ws: string } {
    const text = JSON.stringify(fields);
    return { sse: text, ws: text.slice(1, -1) };
  }

  function replayFrames(group: Group, after: number): Rendered[] {
    const out: Rendered[] = [];
    hub.window.forEachAfter(after, group, (_seq, frame) => out.push(frame));
    return out;
  }

  /**
   * Snapshot frames carry `<seq>-s<k>` ids: not a resume point, so a drop mid-snapshot resyncs;
   * `snapshot:complete` carries the seq. Each is rendered when sent.
   */
  function snapshotFrames(group: Group, head: number, headId: string, resync: boolean): SnapshotFrame[] {
    // The frame bodies are built once per group version and shared by the members joining at it; only ids differ.
    const bodies = service.shared(group, `sse|${resync}`, () => snapshotBodies(group, resync));
    return bodies.map(([name, data, pieces], i) => [
      () => {
        const sse = data();
        return hub.renderOne(i === bodies.length - 1 ? headId : `${head}-s${i + 1}`, { name, sse, ws: sse.slice(1, -1) });
      },
      pieces,
    ]);
  }

  /** The snapshot's frames as `[event name, data]`, `snapshot:complete` last; odds chunks are presented when first sent. */
  function snapshotBodies(group: Group, resync: boolean): SnapshotBody[] {
    const snap = service.snapshot(group);
    const out: SnapshotBody[] = [];
    const books = new Set<string>();
    if (snap.odds) {
      const rows = snap.odds;
      for (const r of rows) books.add(r.book);
      for (let i = 0; i === 0 || i < rows.length; i += SNAPSHOT_CHUNK) {
        const offset = i;
        const chunk = rows.slice(offset, offset + SNAPSHOT_CHUNK);
        const frame = new RowsFrame(
          chunk,
          (joined) =>
            `{"odds":[${joined}],"count":${chunk.length},"total":${rows.length},"offset":${offset},"has_more":${offset + SNAPSHOT_CHUNK < rows.length},"resync":${resync}}`,
        );
        out.push(['snapshot', frame.text, frame]);
      }
    }
    const counts: Record<string, number> = {};
    if (snap.lists) {
      const items = snap.lists.flatMap((l) => l.rows.map((json) => ({ list: l.list, json })));
      for (const l of snap.lists) counts[l.list] = l.rows.length;
      const totalChunks = Math.max(1, Math.ceil(items.length / SNAPSHOT_CHUNK));
      for (let c = 0; c < totalChunks; c++) {
        const chunk = items.slice(c * SNAPSHOT_CHUNK, (c + 1) * SNAPSHOT_CHUNK);
        const parts = snap.lists.map(
          (l) =>
            `${JSON.stringify(l.list)}:[${chunk
              .filter((x) => x.list === l.list)
              .map((x) => x.json)
              .join(',')}]`,
        );
        const sse = `{${parts.join(',')}${parts.length > 0 ? ',' : ''}"chunk":${c + 1},"total_chunks":${totalChunks},"resync":${resync}}`;
        out.push(['snapshot', () => sse]);
      }
    }
    if (snap.games) {
      const sse = GameStateSource.snapshotPayload((group.spec.channels.get(GAMESTATE_CHANNEL) as GameStateSpec).sport, snap.games, resync);
      out.push(['gamestate:snapshot', () => sse]);
    }
    if (snap.splits) {
      const rows = snap.splits;
      for (let i = 0; i === 0 || i < rows.length; i += SNAPSHOT_CHUNK) {
        const chunk = rows.slice(i, i + SNAPSHOT_CHUNK);
        const sse = `{"splits":${jsonArray(chunk)},"count":${chunk.length},"total":${rows.length},"offset":${i},"has_more":${i + SNAPSHOT_CHUNK < rows.length},"resync":${resync}}`;
        out.push(['splits:snapshot', () => sse]);
      }
    }
    const complete = JSON.stringify({
      status: 'ready',
      books: [...books].sort(),
      total_odds: snap.odds?.length ?? 0,
      opportunities: counts,
      ...(snap.games ? { total_games: snap.games.length } : {}),
      ...(snap.splits ? { total_splits: snap.splits.length } : {}),
      resync,
    });
    out.push(['snapshot:complete', () => complete]);
    return out;
  }

  const schema = (summary: string, params?: object) => ({
    tags: ['streams'],
    summary,
    description,
    querystring: querySchema,
    // A path parameter can be empty: that path is no route (404).
    ...(params ? { params } : {}),
    response: params ? { ...responses, 404: notFoundResponse } : responses,
  });
  app.get('/stream', { schema: schema('Server-Sent Events stream of odds, opportunities or both') }, open(null));
  app.get('/stream/odds', { schema: schema('SSE stream, channel=odds') }, open('odds'));
  app.get('/stream/opportunities', { schema: schema('SSE stream, channel=opportunities') }, open('opportunities'));
  app.get('/stream/all', { schema: schema('SSE stream, channel=all') }, open('all'));
  app.get('/stream/gamestate', { schema: schema('SSE stream, channel=gamestate: live game state (Enterprise)') }, open('gamestate'));
  app.get('/stream/splits', { schema: schema('SSE stream, channel=splits: betting splits as /splits answers them') }, open('splits'));
  app.get(
    '/stream/alerts',
    { schema: schema("SSE stream, channel=alerts: the alerts of the account's own alert rules, as their webhooks get them") },
    open('alerts'),
  );
  app.get(
    '/stream/events/:eventId',
    {
      schema: schema("SSE stream of one event's odds (channel=odds&event={eventId})", {
        type: 'object',
        required: ['eventId'],
        properties: { eventId: { type: 'string', minLength: 1, maxLength: 200 } },
      }),
    },
    open('odds'),
  );
};
