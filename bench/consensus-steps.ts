import { americanToProbability } from '../pipeline/odds-math/index.js';
import { toAmerican } from '../pipeline/feeds/theoddsapi/index.js';
import type { RecordedSnapshot } from '../pipeline/feeds/theoddsapi/index.js';
import { percentile } from '../pipeline/freshness/index.js';

/**
 * How the recorded market moves before the game, between news and at it: for each event not
 * started, the consensus moneyline (the median over the books of each book's no-vig share of the
 * home side against the away side, draw left out) is compared between one snapshot and the next,
 * over the books priced in both (a book that comes or goes is no move). A pair of snapshots in
 * which it moved at all is a step. Read off it: the share of pairs with a step, the step rate
 * (the Poisson rate that best explains which pairs, each at its own gap, saw a step), and the step
 * size in logits of that home share, which is the unit of the simulator's truth
 * (`fair.ts`: margin / marginScale is the logit of the home win), over pairs close enough
 * together (`SIZE_MAX_GAP_MS`) to hold one step rather than several. The same for the lead
 * reference book alone (LowVig, the recordings' one sharp book).
 * `bench/pregame-steps.ts` prints them for the recordings.
 */

/** Pairs farther apart than this hold several steps too often to say how large one is (the recordings' Sunday and last-day snapshots are 12-15 minutes apart). */
export const SIZE_MAX_GAP_MS = 30 * 60_000;
/** The consensus needs this many books priced in both snapshots. */
const MIN_COMMON_BOOKS = 3;
/** A move smaller than this is arithmetic, not a price change. */
export const NO_MOVE = 1e-9;
export const LEAD_BOOK = 'lowvig';

/** One event's moneyline compared between two snapshots: how far apart, and how far its logit moved. */
export interface StepPair {
  gapMs: number;
  moveLogit: number;
}

export interface StepStats {
  pairs: number;
  gapP50Minutes: number | null;
  /** Share of pairs in which the price moved at all, percent. */
  stepShare: number | null;
  /** Steps per hour per event, Poisson maximum likelihood over every pair's gap. */
  stepsPerHour: number | null;
  /** Size of a step (|move| of pairs at most `SIZE_MAX_GAP_MS` apart that moved), logits, p50 / p90, and how many. */
  sizeP50: number | null;
  sizeP90: number | null;
  sizedSteps: number;
}

export const logit = (p: number): number => Math.log(p / (1 - p));

/** Each book's no-vig share of the home side against the away side, for an event's moneyline in one snapshot. */
function homeShares(event: Record<string, unknown>): Map<string, number> {
  const out = new Map<string, number>();
  const home = event['home_team'];
  const away = event['away_team'];
  const books = event['bookmakers'];
  if (!Array.isArray(books)) return out;
  for (const book of books) {
    if (!isRecord(book)) continue;
    const key = book['key'];
    const markets = book['markets'];
    if (typeof key !== 'string' || !Array.isArray(markets)) continue;
    const h2h: unknown = markets.find((m: unknown) => isRecord(m) && m['key'] === 'h2h');
    const outcomes: unknown = isRecord(h2h) ? h2h['outcomes'] : null;
    if (!Array.isArray(outcomes)) continue;
    const implied = (name: unknown): number | null => {
      const o: unknown = outcomes.find((x: unknown) => isRecord(x) && x['name'] === name);
      const american = isRecord(o) && typeof o['price'] === 'number' ? toAmerican(o['price']) : null;
      return american === null ? null : americanToProbability(american);
    };
    const h = implied(home);
    const a = implied(away);
    if (h !== null && a !== null) out.set(key, h / (h + a));
  }
  return out;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const median = (xs: number[]): number | null =>
  percentile(
    xs.sort((a, b) => a - b),
    0.5,
  );

/** Each event of a snapshot not started yet that some book prices, with each book's no-vig home share. */
export function* pregameShares(snapshot: RecordedSnapshot): Generator<{ id: string; shares: Map<string, number> }> {
  for (const event of snapshot.data) {
    if (!isRecord(event) || typeof event['id'] !== 'string') continue;
    const start = Date.parse(String(event['commence_time']));
    if (Number.isNaN(start) || start <= snapshot.timestamp) continue;
    const shares = homeShares(event);
    if (shares.size > 0) yield { id: event['id'], shares };
  }
}

/** Pairs of consecutive pre-match sightings of each event's moneyline: the consensus's, and the lead book's. */
export class PregameSteps {
  private readonly last = new Map<string, { at: number; shares: Map<string, number> }>();
  readonly consensus: StepPair[] = [];
  readonly lead: StepPair[] = [];

  add(snapshot: RecordedSnapshot): void {
    for (const { id, shares } of pregameShares(snapshot)) {
      const before = this.last.get(id);
      this.last.set(id, { at: snapshot.timestamp, shares });
      if (before === undefined) continue;
      const gapMs = snapshot.timestamp - before.at;
      const common = [...shares.keys()].filter((b) => before.shares.has(b));
      if (common.length >= MIN_COMMON_BOOKS) {
        const was = median(common.map((b) => before.shares.get(b) ?? NaN));
        const now = median(common.map((b) => shares.get(b) ?? NaN));
        if (was !== null && now !== null) this.consensus.push({ gapMs, moveLogit: logit(now) - logit(was) });
      }
      const leadWas = before.shares.get(LEAD_BOOK);
      const leadNow = shares.get(LEAD_BOOK);
      if (leadWas !== undefined && leadNow !== undefined) this.lead.push({ gapMs, moveLogit: logit(leadNow) - logit(leadWas) });
    }
  }
}

/** Step share, rate and size over pairs. */
export function stepStats(pairs: readonly StepPair[]): StepStats {
  const stepped = pairs.filter((p) => Math.abs(p.moveLogit) > NO_MOVE);
  const sizes = stepped.filter((p) => p.gapMs <= SIZE_MAX_GAP_MS).map((p) => Math.abs(p.moveLogit));
  sizes.sort((a, b) => a - b);
  const gaps = pairs.map((p) => p.gapMs / 60_000).sort((a, b) => a - b);
  return {
    pairs: pairs.length,
    gapP50Minutes: percentile(gaps, 0.5),
    stepShare: pairs.length === 0 ? null : (100 * stepped.length) / pairs.length,
    stepsPerHour: poissonRate(pairs.map((p) => ({ hours: p.gapMs / 3_600_000, stepped: Math.abs(p.moveLogit) > NO_MOVE }))),
    sizeP50: percentile(sizes, 0.5),
    sizeP90: percentile(sizes, 0.9),
    sizedSteps: sizes.length,
  };
}

/**
 * The rate r (per hour) of a Poisson process that best explains which intervals saw at least one
 * event: the likelihood is the product of 1 - e^(-r h) over intervals with one and e^(-r h) over
 * those without, whose derivative in r falls from +inf to -sum(h); found by bisection. Null
 * without intervals; Infinity when every interval saw one.
 */
export function poissonRate(intervals: readonly { hours: number; stepped: boolean }[]): number | null {
  if (intervals.length === 0) return null;
  if (intervals.every((i) => i.stepped)) return Infinity;
  if (intervals.every((i) => !i.stepped)) return 0;
  const slope = (r: number): number => {
    let s = 0;
    for (const i of intervals) s += i.stepped ? i.hours / Math.expm1(r * i.hours) : -i.hours;
    return s;
  };
  let lo = 0;
  let hi = 1;
  while (slope(hi) > 0) hi *= 2;
  for (let k = 0; k < 100; k++) {
    const mid = (lo + hi) / 2;
    if (slope(mid) > 0) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
