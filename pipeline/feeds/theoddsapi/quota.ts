/**
 * Credit arithmetic of The Odds API, pure. A call to `/v4/sports/{sport}/odds` costs
 * (number of markets) x (number of regions) credits; the account's credits for the period are
 * reported on every response (`x-requests-remaining`, `x-requests-used`, `x-requests-last`);
 * the period is a month that resets on the subscription's billing day (no header says when).
 */

export interface QuotaHeaders {
  remaining: number | null;
  used: number | null;
  /** Cost of this very call. */
  last: number | null;
}

interface HeaderSource {
  get(name: string): string | null;
}

function headerNumber(headers: HeaderSource, name: string): number | null {
  const raw = headers.get(name);
  if (raw === null || raw.trim() === '') return null;
  const n = Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : null;
}

export function parseQuotaHeaders(headers: HeaderSource): QuotaHeaders {
  return {
    remaining: headerNumber(headers, 'x-requests-remaining'),
    used: headerNumber(headers, 'x-requests-used'),
    last: headerNumber(headers, 'x-requests-last'),
  };
}

/** Credits one call costs: markets x regions. */
export function creditsPerCall(markets: number, regions: number): number {
  return Math.max(1, markets) * Math.max(1, regions);
}

/** The next period reset strictly after `nowMs`: 00:00 UTC on `resetDay` (1-28) of a month. */
export function nextPeriodReset(nowMs: number, resetDay: number): number {
  const now = new Date(nowMs);
  const day = Math.min(28, Math.max(1, Math.trunc(resetDay)));
  const thisMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), day);
  return thisMonth > nowMs ? thisMonth : Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, day);
}

export interface IntervalInputs {
  nowMs: number;
  /** `x-requests-remaining` of the latest response; null before any. */
  remaining: number | null;
  /** Credits used this period (`x-requests-used`, or our own tally); null when unknown. */
  used: number | null;
  /** Self-imposed cap on credits per period; null for none. */
  monthlyCreditBudget: number | null;
  /** Credits one polling cycle costs: active sports x markets x regions. */
  costPerCycle: number;
  periodResetMs: number;
  minIntervalMs: number;
  maxIntervalMs: number;
  /** The operator's interval: never poll faster than this; null to poll as often as credits allow. */
  preferredIntervalMs: number | null;
  /** The interval when nothing is known of the credits (no headers, no budget). */
  defaultIntervalMs: number;
}

export type IntervalDecision =
  { kind: 'poll'; intervalMs: number; availableCredits: number | null } | { kind: 'exhausted'; resumeAt: number; availableCredits: number };

/**
 * How long to wait before the next cycle so that the credits last until the period resets:
 *
 *   available = min(remaining, monthlyCreditBudget - used)
 *   cycles    = floor(available / costPerCycle)
 *   interval  = clamp(max((periodReset - now) / cycles, preferredInterval), minInterval, maxInterval)
 *
 * Fewer credits than one cycle costs: exhausted until the period resets. The ceiling wins over
 * the budget (a feed that polls less than hourly is not a live feed): with too few credits for
 * the ceiling the feed spends them early and then pauses.
 */
export function planInterval(i: IntervalInputs): IntervalDecision {
  const clamp = (ms: number): number => Math.ceil(Math.min(i.maxIntervalMs, Math.max(i.minIntervalMs, ms)));
  const fromHeader = i.remaining ?? Number.POSITIVE_INFINITY;
  const fromBudget = i.monthlyCreditBudget === null ? Number.POSITIVE_INFINITY : i.monthlyCreditBudget - (i.used ?? 0);
  const available = Math.max(0, Math.min(fromHeader, fromBudget));
  if (!Number.isFinite(available)) {
    return { kind: 'poll', intervalMs: clamp(i.preferredIntervalMs ?? i.defaultIntervalMs), availableCredits: null };
  }
  const cost = Math.max(1, i.costPerCycle);
  if (available < cost) return { kind: 'exhausted', resumeAt: i.periodResetMs, availableCredits: available };
  const cycles = Math.floor(available / cost);
  const spread = Math.max(0, i.periodResetMs - i.nowMs) / cycles;
  return { kind: 'poll', intervalMs: clamp(Math.max(spread, i.preferredIntervalMs ?? 0)), availableCredits: available };
}

/**
 * Exponential backoff with "equal jitter": half the step fixed, half random, so retries of
 * several sports spread out. `failures` counts from 1; `random` returns [0, 1).
 */
export function backoffDelay(failures: number, baseMs: number, capMs: number, random: () => number): number {
  const step = Math.min(capMs, baseMs * 2 ** Math.max(0, failures - 1));
  return Math.round(step / 2 + random() * (step / 2));
}

/** `Retry-After` in ms: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, nowMs: number): number | null {
  if (value === null || value.trim() === '') return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}
