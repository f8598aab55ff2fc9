import type { Logger } from 'pino';
import { settingDefault } from '../../schemas/index.js';
import { clickHouseTime } from '../../pipeline/sinks/index.js';
import type { OlapStore, StoreRow } from '../../pipeline/store/index.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

interface Bucket {
  minute: number;
  accountId: string;
  keyId: string;
  endpoint: string;
  requests: number;
  errors: number;
}

export interface UsageOptions {
  store: OlapStore;
  logger: Logger;
  now?: () => number;
  /** How often buffered counts go to `api_usage`. */
  flushMs?: number;
}

/** Requests in the calendar periods of `GET /account/usage` (UTC). */
export interface PeriodCounts {
  today: number;
  this_week: number;
  this_month: number;
}

export interface AccountUsage extends PeriodCounts {
  byEndpoint: Map<string, PeriodCounts>;
}

/** Start of the UTC day, ISO week (Monday) and month containing `now`, epoch ms. */
export function periodStarts(now: number): { day: number; week: number; month: number; nextMonth: number } {
  const d = new Date(now);
  const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  const week = day - ((d.getUTCDay() + 6) % 7) * DAY_MS;
  const month = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const nextMonth = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  return { day, week, month, nextMonth };
}

/**
 * Request counting off the request path: `record` bumps an in-memory counter per (minute, key,
 * endpoint); a timer flushes the counters to `api_usage` every few seconds in one insert. A
 * failed flush keeps its counts for the next one, and `stop` flushes what is left, so no
 * counted request is lost on a clean shutdown.
 */
export class UsageRecorder {
  private buffer = new Map<string, Bucket>();
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  private readonly now: () => number;

  constructor(private readonly options: UsageOptions) {
    this.now = options.now ?? Date.now;
    this.timer = setInterval(() => void this.flush(), options.flushMs ?? settingDefault('USAGE_FLUSH_MS'));
    this.timer.unref();
  }

  record(accountId: string, keyId: string, endpoint: string, failed: boolean): void {
    const minute = Math.floor(this.now() / MINUTE_MS) * MINUTE_MS;
    const id = `${minute}\u0000${keyId}\u0000${endpoint}`;
    let b = this.buffer.get(id);
    if (!b) this.buffer.set(id, (b = { minute, accountId, keyId, endpoint, requests: 0, errors: 0 }));
    b.requests++;
    if (failed) b.errors++;
  }

  /** Writes the buffered counts; concurrent calls run one after the other. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.flushOnce());
    return this.flushing;
  }

  private async flushOnce(): Promise<void> {
    if (this.buffer.size === 0) return;
    const pending = this.buffer;
    this.buffer = new Map();
    const rows: StoreRow[] = [...pending.values()].map((b) => ({
      minute: clickHouseTime(b.minute).slice(0, 19),
      account_id: b.accountId,
      key_id: b.keyId,
      endpoint: b.endpoint,
      requests: b.requests,
      errors: b.errors,
    }));
    try {
      await this.options.store.insert('api_usage', rows);
    } catch (err) {
      this.options.logger.warn({ err, buckets: rows.length }, 'usage flush failed; the counts stay buffered for the next flush');
      for (const [id, b] of pending) {
        const now = this.buffer.get(id);
        if (now) {
          now.requests += b.requests;
          now.errors += b.errors;
        } else this.buffer.set(id, b);
      }
    }
  }

  /**
   * An account's requests today, this week and this month: stored plus not yet flushed. Runs in
   * the flush queue, so a count is never in flight (neither buffered nor stored) while read.
   */
  usageOf(accountId: string): Promise<AccountUsage> {
    const result = this.flushing.then(() => this.readUsage(accountId));
    this.flushing = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  private async readUsage(accountId: string): Promise<AccountUsage> {
    const { day, week, month, nextMonth } = periodStarts(this.now());
    const from = Math.min(week, month);
    const rows = await this.options.store.query<{ endpoint: string; today: number; this_week: number; this_month: number }>(
      `SELECT endpoint,
              sumIf(requests, minute >= toDateTime({day:UInt32}, 'UTC')) AS today,
              sumIf(requests, minute >= toDateTime({week:UInt32}, 'UTC')) AS this_week,
              sumIf(requests, minute >= toDateTime({month:UInt32}, 'UTC')) AS this_month
         FROM api_usage
        WHERE account_id = {account:String}
          AND minute >= toDateTime({from:UInt32}, 'UTC') AND minute < toDateTime({until:UInt32}, 'UTC')
        GROUP BY endpoint`,
      {
        account: accountId,
        day: day / 1000,
        week: week / 1000,
        month: month / 1000,
        from: from / 1000,
        until: Math.max(nextMonth, day + DAY_MS) / 1000,
      },
    );
    const byEndpoint = new Map<string, PeriodCounts>();
    const add = (endpoint: string, counts: PeriodCounts): void => {
      let e = byEndpoint.get(endpoint);
      if (!e) byEndpoint.set(endpoint, (e = { today: 0, this_week: 0, this_month: 0 }));
      e.today += counts.today;
      e.this_week += counts.this_week;
      e.this_month += counts.this_month;
    };
    for (const r of rows) add(r.endpoint, { today: Number(r.today), this_week: Number(r.this_week), this_month: Number(r.this_month) });
    for (const b of this.buffer.values()) {
      if (b.accountId !== accountId) continue;
      add(b.endpoint, {
        today: b.minute >= day ? b.requests : 0,
        this_week: b.minute >= week ? b.requests : 0,
        this_month: b.minute >= month ? b.requests : 0,
      });
    }
    const sum = (f: keyof PeriodCounts): number => [...byEndpoint.values()].reduce((s, e) => s + e[f], 0);
    return { today: sum('today'), this_week: sum('this_week'), this_month: sum('this_month'), byEndpoint };
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
