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
