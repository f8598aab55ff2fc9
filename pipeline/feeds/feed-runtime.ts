/**
 * The small imperative seams of the feeds: a logger shaped like pino's, and a sleep that an
 * abort signal ends early. Both are injectable so that tests run fast and deterministic.
 */

export interface FeedLogger {
  info(fields: Record<string, unknown>, msg: string): void;
  warn(fields: Record<string, unknown>, msg: string): void;
  error(fields: Record<string, unknown>, msg: string): void;
}

export const silentLogger: FeedLogger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/** One JSON line per entry on stderr, for when no logger is given. */
export const consoleLogger: FeedLogger = {
  info: (fields, msg) => console.error(JSON.stringify({ level: 'info', msg, ...fields })),
  warn: (fields, msg) => console.error(JSON.stringify({ level: 'warn', msg, ...fields })),
  error: (fields, msg) => console.error(JSON.stringify({ level: 'error', msg, ...fields })),
};

/** Waits `ms`, or less if `signal` aborts; never rejects. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

/** setTimeout caps delays at 2^31-1 ms; longer waits are taken in steps. */
const MAX_TIMER_MS = 2_147_483_647;

export const realSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted || ms <= 0) {
      resolve();
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(
      () => {
        signal.removeEventListener('abort', onAbort);
        if (ms > MAX_TIMER_MS) resolve(realSleep(ms - MAX_TIMER_MS, signal));
        else resolve();
      },
      Math.min(ms, MAX_TIMER_MS),
    );
    signal.addEventListener('abort', onAbort, { once: true });
  });

export function errorMessage(err: unknown): string {
  if (err instanceof Error) {
    const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
    return `${err.message}${cause}`;
  }
  return String(err);
}

/**
 * A warning that can repeat thousands of times (a garbage recording has a bad line per line):
 * the first occurrence is logged with its details, later ones are only counted, and the count
 * goes out as one summary line at most every `intervalMs` and once more on `flush`.
 */
export class RepeatedWarning {
  private total = 0;
  private unreported = 0;
  private lastReportAt = 0;
  private first: Record<string, unknown> | null = null;
  private latest: Record<string, unknown> | null = null;

  constructor(
    private readonly logger: FeedLogger,
    private readonly msg: string,
    private readonly intervalMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  get count(): number {
    return this.total;
  }

  note(fields: Record<string, unknown>): void {
    this.total++;
    this.latest = fields;
    if (this.first === null) {
      this.first = fields;
      this.lastReportAt = this.now();
      this.logger.warn({ ...fields, note: 'further occurrences are counted and summarised' }, this.msg);
      return;
    }
    this.unreported++;
    if (this.now() - this.lastReportAt >= this.intervalMs) this.report();
  }

  /** The summary of what was counted since the last line, if anything was. */
  flush(): void {
    if (this.unreported > 0) this.report();
  }

  private report(): void {
    this.logger.warn({ count: this.unreported, total: this.total, first: this.first, last: this.latest }, `${this.msg} (repeated)`);
    this.unreported = 0;
    this.lastReportAt = this.now();
  }
}
