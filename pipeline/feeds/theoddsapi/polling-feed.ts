import type { RawTick } from '../../../schemas/index.js';
import type { Clock } from '../../clock.js';
import type { Feed } from '../feed.js';
import type { PriceFormat } from './mapping.js';
import { backoffDelay, creditsPerCall, nextPeriodReset, parseQuotaHeaders, parseRetryAfter, planInterval } from './quota.js';
import { consoleLogger, errorMessage, realSleep } from '../feed-runtime.js';
import type { FeedLogger, Sleep } from '../feed-runtime.js';
import { EMPTY_STATE, mapSnapshot } from './snapshot-diff.js';
import type { DiffState } from './snapshot-diff.js';
import { emptyStats, mergeStats } from './stats.js';
import type { MappingStats } from './stats.js';
import { parseApiError } from './wire.js';

export const DEFAULT_BASE_URL = 'https://api.the-odds-api.com';
export const DEFAULT_MARKETS: readonly string[] = ['h2h', 'spreads', 'totals'];

export interface PollingFeedOptions {
  apiKey: string;
  /** Default https://api.the-odds-api.com. */
  baseUrl?: string;
  /** Sport keys, e.g. `americanfootball_nfl`. One request per sport per cycle. */
  sports: readonly string[];
  /** Bookmaker regions: us, us2, uk, eu, au. */
  regions: readonly string[];
  /** Default h2h, spreads, totals. The odds endpoint takes featured markets only. */
  markets?: readonly string[];
  clock: Clock;
  /** Never poll faster than this (default: as often as the credits allow, down to `minIntervalMs`). */
  intervalMs?: number;
  /** Cap on the credits this feed may spend per period (default: all the account has). */
  monthlyCreditBudget?: number;
  /** Day of month (1-28, UTC) the credits reset: the subscription's billing day. Default 1. */
  periodResetDay?: number;
  /** Floor of the polling interval, default 10 s. */
  minIntervalMs?: number;
  /** Ceiling of the polling interval, default 1 h. */
  maxIntervalMs?: number;
  /** Interval while nothing is known of the credits (no quota headers, no budget), default 60 s. */
  defaultIntervalMs?: number;
  /** First retry delay after a 429/5xx/network error, doubled per failure; default 2 s. */
  backoffBaseMs?: number;
  /** Longest retry delay, default 5 min. */
  backoffMaxMs?: number;
  /** Per-request timeout, default 30 s. */
  requestTimeoutMs?: number;
  fetch?: typeof fetch;
  logger?: FeedLogger;
  sleep?: Sleep;
  /** PRNG in [0, 1) for backoff jitter; default Math.random. */
  random?: () => number;
  priceFormat?: PriceFormat;
}

export interface PollingErrors {
  network: number;
  invalidJson: number;
  /** JSON that is not an events array. */
  invalidBody: number;
  rateLimited: number;
  server: number;
  /** Other 4xx (unknown sport, invalid market, ...): retried at the ceiling interval. */
  client: number;
  unauthorized: number;
  /** emit rejected: the snapshot is diffed again on the next poll. */
  emit: number;
}

export interface PollingStats {
  requests: number;
  successes: number;
  errors: PollingErrors;
  credits: { remaining: number | null; used: number | null; last: number | null; spentThisPeriod: number };
  /** The latest planned wait between cycles. */
  lastIntervalMs: number | null;
  exhausted: boolean;
  stoppedSports: string[];
  mapping: MappingStats;
}

type PollOutcome = { kind: 'ok' } | { kind: 'retry'; delayMs: number } | { kind: 'exhausted' } | { kind: 'stop' } | { kind: 'aborted' };

interface SportPoller {
  sport: string;
  state: DiffState;
  failures: number;
  stopped: boolean;
}

const OUT_OF_CREDITS = 'OUT_OF_USAGE_CREDITS';

/**
 * Polls The Odds API: one loop per sport, `GET {baseUrl}/v4/sports/{sport}/odds` with
 * `oddsFormat=american`, each response diffed against the sport's previous one. Waits are
 * planned from the remaining credits (see `planInterval`); 429 and 5xx are retried with
 * jittered exponential backoff (honouring Retry-After), 401 stops that sport, and nothing the
 * network or the API does throws out of the feed. The API key never reaches a log line.
 */
export class TheOddsApiPollingFeed implements Feed {
  readonly name = 'theoddsapi';

  private readonly baseUrl: string;
  private readonly markets: readonly string[];
  private readonly fetchFn: typeof fetch;
  private readonly logger: FeedLogger;
  private readonly sleep: Sleep;
  private readonly random: () => number;
  private readonly abort = new AbortController();
  private readonly pollers: SportPoller[];
  private loops: Promise<void>[] = [];
  private started = false;
  private periodEnd: number;
  private exhaustedLogged = false;
  private readonly current: PollingStats = {
    requests: 0,
    successes: 0,
    errors: { network: 0, invalidJson: 0, invalidBody: 0, rateLimited: 0, server: 0, client: 0, unauthorized: 0, emit: 0 },
    credits: { remaining: null, used: null, last: null, spentThisPeriod: 0 },
    lastIntervalMs: null,
    exhausted: false,
    stoppedSports: [],
    mapping: emptyStats(),
  };

  constructor(private readonly options: PollingFeedOptions) {
    if (options.apiKey.trim() === '') throw new Error('The Odds API: apiKey is empty');
    if (options.sports.length === 0) throw new Error('The Odds API: no sports to poll');
    if (options.regions.length === 0) throw new Error('The Odds API: no regions');
    this.markets = options.markets !== undefined && options.markets.length > 0 ? options.markets : DEFAULT_MARKETS;
    this.baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.fetchFn = options.fetch ?? fetch;
    this.logger = options.logger ?? consoleLogger;
    this.sleep = options.sleep ?? realSleep;
    this.random = options.random ?? Math.random;
    this.pollers = [...new Set(options.sports)].map((sport) => ({ sport, state: EMPTY_STATE, failures: 0, stopped: false }));
    this.periodEnd = nextPeriodReset(options.clock.now(), options.periodResetDay ?? 1);
  }

  /** The counters so far (a copy). */
  get stats(): PollingStats {
    return {
      ...this.current,
      errors: { ...this.current.errors },
      credits: { ...this.current.credits },
      stoppedSports: [...this.current.stoppedSports],
      mapping: mergeStats(emptyStats(), this.current.mapping),
    };
  }

  /** Credits one call costs (markets x regions). */
  get creditsPerCall(): number {
    return creditsPerCall(this.markets.length, this.options.regions.length);
  }

  /** Starts one polling loop per sport and resolves; the loops run until stop(). */
  async start(emit: (ticks: RawTick[]) => Promise<void>): Promise<void> {
    if (this.started) throw new Error('TheOddsApiPollingFeed already started');
    this.started = true;
    this.logger.info(
      {
        sports: this.pollers.map((p) => p.sport),
        regions: this.options.regions,
        markets: this.markets,
        creditsPerCall: this.creditsPerCall,
      },
      'The Odds API polling started',
    );
    this.loops = this.pollers.map((poller) => this.runSport(poller, emit));
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await Promise.all(this.loops);
  }

  private async runSport(poller: SportPoller, emit: (ticks: RawTick[]) => Promise<void>): Promise<void> {
    const signal = this.abort.signal;
    try {
      while (!signal.aborted && !poller.stopped) {
        const outcome = await this.pollOnce(poller, emit);
        if (outcome.kind === 'aborted') return;
        if (outcome.kind === 'stop') {
          poller.stopped = true;
          this.current.stoppedSports.push(poller.sport);
          if (this.pollers.every((p) => p.stopped)) this.logger.error({}, 'The Odds API: every sport stopped; the feed is idle');
          return;
        }
        await this.sleep(this.waitAfter(outcome), signal);
      }
    } catch (err) {
      // Unreachable by design; a loop must still never take the process down.
      this.logger.error({ sport: poller.sport, error: this.redact(errorMessage(err)) }, 'The Odds API: polling loop failed');
    }
  }

  private waitAfter(outcome: { kind: 'ok' } | { kind: 'retry'; delayMs: number } | { kind: 'exhausted' }): number {
    if (outcome.kind === 'retry') return outcome.delayMs;
    const now = this.options.clock.now();
    this.rollPeriod(now);
    const decision =
      outcome.kind === 'exhausted'
        ? ({ kind: 'exhausted', resumeAt: this.periodEnd, availableCredits: 0 } as const)
        : planInterval({
            nowMs: now,
            remaining: this.current.credits.remaining,
            used: this.current.credits.used ?? this.current.credits.spentThisPeriod,
            monthlyCreditBudget: this.options.monthlyCreditBudget ?? null,
            costPerCycle: this.creditsPerCall * this.pollers.filter((p) => !p.stopped).length,
            periodResetMs: this.periodEnd,
            minIntervalMs: this.options.minIntervalMs ?? 10_000,
            maxIntervalMs: this.options.maxIntervalMs ?? 3_600_000,
            preferredIntervalMs: this.options.intervalMs ?? null,
            defaultIntervalMs: this.options.defaultIntervalMs ?? 60_000,
          });
    if (decision.kind === 'poll') {
      this.current.exhausted = false;
      this.exhaustedLogged = false;
      this.current.lastIntervalMs = decision.intervalMs;
      return decision.intervalMs;
    }
    this.current.exhausted = true;
    if (!this.exhaustedLogged) {
      this.exhaustedLogged = true;
      this.logger.warn(
        { availableCredits: decision.availableCredits, resumeAt: new Date(decision.resumeAt).toISOString() },
        'The Odds API credits exhausted: polling paused until the period resets',
      );
    }
    return Math.max(0, decision.resumeAt - now);
  }

  private rollPeriod(now: number): void {
    if (now < this.periodEnd) return;
    this.periodEnd = nextPeriodReset(now, this.options.periodResetDay ?? 1);
    // The last period's figures say nothing of the new one until the next response.
    this.current.credits.remaining = null;
    this.current.credits.used = null;
    this.current.credits.spentThisPeriod = 0;
  }

  private url(sport: string): string {
    const list = (values: readonly string[]): string => values.map(encodeURIComponent).join(',');
    return (
      `${this.baseUrl}/v4/sports/${encodeURIComponent(sport)}/odds` +
      `?apiKey=${encodeURIComponent(this.options.apiKey)}` +
      `&regions=${list(this.options.regions)}&markets=${list(this.markets)}` +
      '&oddsFormat=american&dateFormat=iso'
    );
  }

  private redact(text: string): string {
    const key = this.options.apiKey;
    return text.split(key).join('***').split(encodeURIComponent(key)).join('***');
  }

  private retry(poller: SportPoller, retryAfterMs: number | null = null): PollOutcome {
    poller.failures += 1;
    const delayMs =
      retryAfterMs ?? backoffDelay(poller.failures, this.options.backoffBaseMs ?? 2_000, this.options.backoffMaxMs ?? 300_000, this.random);
    return { kind: 'retry', delayMs };
  }

  private async pollOnce(poller: SportPoller, emit: (ticks: RawTick[]) => Promise<void>): Promise<PollOutcome> {
    const { sport } = poller;
    const signal = this.abort.signal;
    const timeout = AbortSignal.timeout(this.options.requestTimeoutMs ?? 30_000);
    this.current.requests += 1;
    let response: Response;
    let text: string;
    try {
      response = await this.fetchFn(this.url(sport), {
        headers: { accept: 'application/json' },
        signal: AbortSignal.any([signal, timeout]),
      });
      text = await response.text();
    } catch (err) {
      if (signal.aborted) return { kind: 'aborted' };
      this.current.errors.network += 1;
      this.logger.warn({ sport, error: this.redact(errorMessage(err)) }, 'The Odds API request failed; retrying later');
      return this.retry(poller);
    }
    const now = this.options.clock.now();
    this.rollPeriod(now);
    this.recordCredits(response.headers);

    if (response.ok) return this.handleBody(poller, text, now, emit);

    let errorBody: unknown = null;
    try {
      errorBody = JSON.parse(text);
    } catch {
      // An error page that is not JSON: the status says enough.
    }
    const apiError = parseApiError(errorBody);
    const detail = { sport, status: response.status, errorCode: apiError.errorCode, message: this.redact(apiError.message ?? '') };
    if (apiError.errorCode === OUT_OF_CREDITS || /usage quota/i.test(apiError.message ?? '')) {
      this.current.credits.remaining = 0;
      return { kind: 'exhausted' };
    }
    if (response.status === 401 || response.status === 403) {
      this.current.errors.unauthorized += 1;
      this.logger.error(detail, 'The Odds API rejected the API key; polling of this sport stops (check THEODDSAPI_KEY)');
      return { kind: 'stop' };
    }
    if (response.status === 429) {
      this.current.errors.rateLimited += 1;
      const retryAfter = parseRetryAfter(response.headers.get('retry-after'), now);
      const outcome = this.retry(poller, retryAfter);
      this.logger.warn({ ...detail, retryInMs: outcome.kind === 'retry' ? outcome.delayMs : null }, 'The Odds API rate limit; backing off');
      return outcome;
    }
    if (response.status >= 500) {
      this.current.errors.server += 1;
      const outcome = this.retry(poller, parseRetryAfter(response.headers.get('retry-after'), now));
      this.logger.warn({ ...detail, retryInMs: outcome.kind === 'retry' ? outcome.delayMs : null }, 'The Odds API server error; retrying');
      return outcome;
    }
    this.current.errors.client += 1;
    this.logger.warn(detail, 'The Odds API refused the request; retrying at the ceiling interval');
    return { kind: 'retry', delayMs: this.options.maxIntervalMs ?? 3_600_000 };
  }

  /** A key not seen before is logged once; its count is in the stats. */
  private logNewUnknownKeys(sport: string, delta: MappingStats): void {
    const seen = this.current.mapping;
    const fresh = (now: Record<string, number>, before: Record<string, number>): string[] =>
      Object.keys(now).filter((key) => before[key] === undefined);
    const unknown = {
      sports: fresh(delta.unknownSports, seen.unknownSports),
      bookmakers: fresh(delta.unknownBookmakers, seen.unknownBookmakers),
      markets: fresh(delta.unknownMarkets, seen.unknownMarkets),
    };
    if (unknown.sports.length + unknown.bookmakers.length + unknown.markets.length > 0) {
      this.logger.info({ sport, ...unknown }, 'The Odds API: keys without a mapping are skipped');
    }
  }

  private recordCredits(headers: Headers): void {
    const quota = parseQuotaHeaders(headers);
    const credits = this.current.credits;
    if (quota.remaining !== null) credits.remaining = quota.remaining;
    if (quota.used !== null) credits.used = quota.used;
    if (quota.last !== null) {
      credits.last = quota.last;
      credits.spentThisPeriod += quota.last;
    }
  }

  private async handleBody(
    poller: SportPoller,
    text: string,
    now: number,
    emit: (ticks: RawTick[]) => Promise<void>,
  ): Promise<PollOutcome> {
    const { sport } = poller;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      this.current.errors.invalidJson += 1;
      this.logger.warn({ sport, bytes: text.length }, 'The Odds API sent invalid JSON; retrying later');
      return this.retry(poller);
    }
    if (!Array.isArray(body)) {
      this.current.errors.invalidBody += 1;
      this.logger.warn({ sport }, 'The Odds API response is not an events array; retrying later');
      return this.retry(poller);
    }
    const result = mapSnapshot(body, now, poller.state, { priceFormat: this.options.priceFormat ?? 'auto' });
    if (result.ticks.length > 0) {
      try {
        await emit(result.ticks);
      } catch (err) {
        this.current.errors.emit += 1;
        this.logger.error({ sport, error: errorMessage(err) }, 'emit failed; the snapshot is diffed again next poll');
        return this.retry(poller);
      }
    }
    poller.state = result.state;
    poller.failures = 0;
    this.current.successes += 1;
    this.logNewUnknownKeys(sport, result.stats);
    this.current.mapping = mergeStats(this.current.mapping, result.stats);
    return { kind: 'ok' };
  }
}
