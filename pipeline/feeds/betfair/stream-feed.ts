import { isIP } from 'node:net';
import { connect } from 'node:tls';
import type { ConnectionOptions, TLSSocket } from 'node:tls';
import type { DeadLetter, RawTick } from '../../../schemas/index.js';
import type { Clock } from '../../clock.js';
import type { DeadLetterSource, Feed } from '../feed.js';
import { RepeatedWarning, consoleLogger, errorMessage, realSleep } from '../feed-runtime.js';
import type { FeedLogger, Sleep } from '../feed-runtime.js';
import type { CatalogueSource } from './catalogue-source.js';
import { streamDeadLetter } from './dead-letters.js';
import { StreamDecoder } from './decoder.js';
import { authenticationRequest, failureAction, frame, heartbeatRequest, isSessionFailure, marketSubscriptionRequest } from './protocol.js';
import type { MarketDataFilter, MarketFilter, StatusMessage, StreamClocks } from './protocol.js';
import { ExchangeTickMapper, countSkip, ticksOfChange } from './ticks.js';

export interface BetfairStreamStats {
  /** TLS connections opened. */
  connections: number;
  /** Subscriptions the server accepted (the first one and every resumption). */
  subscriptions: number;
  messages: number;
  changes: number;
  conflatedChanges: number;
  ticks: number;
  deadLetters: number;
  skipped: Record<string, number>;
  /** The last failure status the server sent, as `errorCode: errorMessage`. */
  lastFailure: string | null;
  /** Why the feed gave up (a failure retrying cannot mend); null while it runs or after stop(). */
  error: string | null;
}

export interface BetfairStreamFeedOptions {
  host: string;
  port: number;
  appKey: string;
  sessionToken: string;
  /**
   * Logs in again and answers a new session token (the certificate login), asked when the stream
   * says the session is missing or expired; without it that failure stops the feed. Sessions
   * expire after hours, so a long-running feed needs it.
   */
  renewSession?: () => Promise<string>;
  marketFilter: MarketFilter;
  dataFilter: MarketDataFilter;
  /** Our sportsbook id for the exchange. */
  book: string;
  /** The account's commission percent; unset or null: each market's base rate. */
  commissionPercent?: number | null;
  catalogue: CatalogueSource;
  clock: Clock;
  /** Asked of the server; a connection silent for three of these is taken as lost. */
  heartbeatMs?: number;
  /** First reconnect delay, doubled per failed attempt up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Extra TLS options (a test's own certificate authority). */
  tls?: ConnectionOptions;
  logger?: FeedLogger;
  sleep?: Sleep;
}

type SessionEnd = { kind: 'lost'; reason: string } | { kind: 'failure'; status: StatusMessage } | { kind: 'stopped' };

class EmitFailed extends Error {
  constructor(cause: unknown) {
    super('emit failed', { cause });
  }
}

const AUTH_ID = 1;
const SUBSCRIBE_ID = 2;

/** Splits a socket's text into CRLF-terminated messages; a partial message at the end of a dropped connection is left out. */
async function* messagesOf(socket: TLSSocket): AsyncGenerator<string> {
  let buffered = '';
  for await (const chunk of socket as AsyncIterable<string>) {
    buffered += chunk;
    let end: number;
    while ((end = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, end).replace(/\r$/, '');
      buffered = buffered.slice(end + 1);
      if (line.trim() !== '') yield line;
    }
  }
}

/**
 * The Exchange Stream over TLS: connect, authenticate, subscribe, decode. A lost connection is
 * reopened after a backoff and the subscription resumes from the clocks of the last whole change,
 * so the board goes on without a gap or a repeat; a failure retrying cannot mend (a bad app key
 * or session) stops the feed with the server's reason. Credentials are sent, never logged.
 */
export class BetfairStreamFeed implements Feed, DeadLetterSource {
  readonly name = 'betfair-stream';
  /** Resolves when the feed ends: stop(), or a failure it does not retry (in the stats). */
  readonly done: Promise<BetfairStreamStats>;

  private readonly decoder = new StreamDecoder();
  private readonly mapper: ExchangeTickMapper;
  private readonly logger: FeedLogger;
  private readonly sleep: Sleep;
  private readonly abort = new AbortController();
  private socket: TLSSocket | null = null;
  private sessionToken: string;
  private run: Promise<void> | null = null;
  private emitDeadLetters: (letters: DeadLetter[]) => Promise<void> = () => Promise.resolve();
  private resolveDone: (stats: BetfairStreamStats) => void = () => undefined;
  private readonly current: BetfairStreamStats = {
    connections: 0,
    subscriptions: 0,
    messages: 0,
    changes: 0,
    conflatedChanges: 0,
    ticks: 0,
    deadLetters: 0,
    skipped: Object.create(null) as Record<string, number>,
    lastFailure: null,
    error: null,
  };

  constructor(private readonly options: BetfairStreamFeedOptions) {
    this.sessionToken = options.sessionToken;
    this.mapper = new ExchangeTickMapper(options.book, { commissionPercent: options.commissionPercent ?? null });
    this.logger = options.logger ?? consoleLogger;
    this.sleep = options.sleep ?? realSleep;
    this.done = new Promise((resolve) => {
      this.resolveDone = resolve;
    });
  }

  get stats(): BetfairStreamStats {
    return { ...this.current, skipped: Object.assign(Object.create(null) as Record<string, number>, this.current.skipped) };
  }

  /** The market cache as the decoder holds it (for checks and tests). */
  get markets(): StreamDecoder['markets'] {
    return this.decoder.markets;
  }

  /** Where a resubscription would resume now. */
  get resumeClocks(): StreamClocks {
    return this.decoder.resumeClocks;
  }

  onDeadLetter(emit: (letters: DeadLetter[]) => Promise<void>): void {
    this.emitDeadLetters = emit;
  }

  start(emit: (ticks: RawTick[]) => Promise<void>): Promise<void> {
    if (this.run !== null) return Promise.reject(new Error('BetfairStreamFeed already started'));
    this.run = this.connectLoop(emit).then(
      () => this.resolveDone(this.stats),
      (err: unknown) => {
        this.current.error = errorMessage(err);
        this.resolveDone(this.stats);
      },
    );
    return Promise.resolve();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    this.socket?.destroy();
    if (this.run === null) this.resolveDone(this.stats);
    await this.run;
  }

  private async connectLoop(emit: (ticks: RawTick[]) => Promise<void>): Promise<void> {
    const { host } = this.options;
    const backoffMs = this.options.backoffMs ?? 1_000;
    const maxBackoffMs = this.options.maxBackoffMs ?? 60_000;
    let attempt = 0;
    // One new login per subscription: a token refused again before any subscription is a login
    // that does not work, and logging in in a loop would not mend it.
    let renewed = false;
    while (!this.abort.signal.aborted) {
      const end = await this.session(emit, () => {
        attempt = 0;
        renewed = false;
      });
      this.decoder.connectionLost();
      if (end.kind === 'stopped' || this.abort.signal.aborted) return;
      if (end.kind === 'failure') {
        const { errorCode, errorMessage: message } = end.status;
        this.current.lastFailure = `${errorCode ?? 'FAILURE'}: ${message ?? ''}`;
        const action = failureAction(errorCode);
        if (isSessionFailure(errorCode) && this.options.renewSession && !renewed) {
          renewed = true;
          try {
            this.sessionToken = await this.options.renewSession();
          } catch (err) {
            this.current.error = `the session expired and logging in again failed: ${errorMessage(err)}`;
            this.logger.error({ host, errorCode }, `betfair stream stopped: ${this.current.error}`);
            return;
          }
          this.logger.warn({ host, errorCode }, 'betfair stream: the session expired; logged in again, reconnecting');
          continue;
        }
        if (action === 'fatal') {
          this.current.error = `the stream refused the connection: ${this.current.lastFailure}`;
          this.logger.error(
            { host, errorCode, errorMessage: message },
            'betfair stream stopped: retrying cannot help (check the app key and session token)',
          );
          return;
        }
        if (action === 'resubscribe-fresh') this.decoder.resetClocks();
        this.logger.warn({ host, errorCode, errorMessage: message, action }, 'betfair stream: failure status, reconnecting');
      } else {
        this.logger.warn({ host, reason: end.reason }, 'betfair stream: connection lost, reconnecting');
      }
      const delay = Math.min(maxBackoffMs, backoffMs * 2 ** attempt);
      attempt += 1;
      await this.sleep(delay, this.abort.signal);
    }
  }

  /** One connection, from the TLS handshake to its end. */
  private async session(emit: (ticks: RawTick[]) => Promise<void>, subscribed: () => void): Promise<SessionEnd> {
    const o = this.options;
    const heartbeatMs = o.heartbeatMs ?? 5_000;
    // SNI carries host names only; an address is checked against the certificate's IP entries.
    const socket = connect({ host: o.host, port: o.port, ...(isIP(o.host) === 0 ? { servername: o.host } : {}), ...o.tls });
    this.socket = socket;
    socket.setEncoding('utf8');
    this.current.connections += 1;
    let requestId = SUBSCRIBE_ID;
    let lastHeard = Date.now();
    const watchdog = setInterval(() => {
      if (Date.now() - lastHeard > 3 * heartbeatMs) socket.destroy(new Error(`no message for ${3 * heartbeatMs} ms`));
      else if (socket.writable) socket.write(frame(heartbeatRequest(++requestId)));
    }, heartbeatMs);
    const unreadable = new RepeatedWarning(this.logger, 'betfair stream: unreadable message sent to dead-letter');
    try {
      for await (const line of messagesOf(socket)) {
        if (this.abort.signal.aborted) return { kind: 'stopped' };
        lastHeard = Date.now();
        this.current.messages += 1;
        const decoded = this.decoder.receive(line);
        switch (decoded.kind) {
          case 'connection':
            socket.write(frame(authenticationRequest(AUTH_ID, o.appKey, this.sessionToken)));
            break;
          case 'status':
            if (decoded.status.statusCode === 'FAILURE') return { kind: 'failure', status: decoded.status };
            if (decoded.status.id === AUTH_ID) {
              socket.write(
                frame(marketSubscriptionRequest(SUBSCRIBE_ID, o.marketFilter, o.dataFilter, this.decoder.resumeClocks, heartbeatMs)),
              );
            } else if (decoded.status.id === SUBSCRIBE_ID) {
              this.current.subscriptions += 1;
              subscribed();
            }
            break;
          case 'changes':
            await this.changes(decoded.marketIds, decoded.publishTime, decoded.conflated, emit);
            break;
          case 'invalid':
            this.current.deadLetters += 1;
            unreadable.note({ message: this.current.messages, reason: decoded.reason });
            await this.emitDeadLetters([
              streamDeadLetter(this.current.messages, decoded.marketId, decoded.reason, line, o.clock.now()),
            ]).catch((err: unknown) => this.logger.warn({ error: errorMessage(err) }, 'betfair stream: dead letter not sent'));
            break;
          default:
            break;
        }
      }
      return this.abort.signal.aborted ? { kind: 'stopped' } : { kind: 'lost', reason: 'the server closed the connection' };
    } catch (err) {
      // The pipeline refusing ticks is not a connection problem: reconnecting would lose them.
      if (err instanceof EmitFailed) throw err.cause;
      return this.abort.signal.aborted ? { kind: 'stopped' } : { kind: 'lost', reason: errorMessage(err) };
    } finally {
      clearInterval(watchdog);
      unreadable.flush();
      socket.destroy();
      this.socket = null;
    }
  }

  private async changes(
    marketIds: readonly string[],
    publishTime: number,
    conflated: boolean,
    emit: (ticks: RawTick[]) => Promise<void>,
  ): Promise<void> {
    const stats = this.current;
    stats.changes += 1;
    if (conflated) stats.conflatedChanges += 1;
    await this.options.catalogue.load(marketIds);
    const catalogue = this.options.catalogue;
    const { ticks, skipped } = ticksOfChange(this.decoder, this.mapper, (id) => catalogue.get(id), marketIds, publishTime);
    for (const reason of skipped) countSkip(stats.skipped, reason);
    if (ticks.length === 0) return;
    try {
      await emit(ticks);
    } catch (err) {
      throw new EmitFailed(err);
    }
    stats.ticks += ticks.length;
  }
}
