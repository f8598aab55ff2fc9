import { americanToDecimal } from '../pipeline/odds-math/index.js';
import { parseBookmaker, parseEvent, parseMarket, parseOutcome, toAmerican } from '../pipeline/feeds/theoddsapi/index.js';
import type { RecordedSnapshot, WireBookmaker } from '../pipeline/feeds/theoddsapi/index.js';

/**
 * How often and for how long two recorded books' pre-match markets cross: the same market of the
 * same game at the same line, priced so that the best of the two books' prices on every outcome
 * make an arbitrage. Every pair of books is read but those with BetOnline, LowVig's twin (it
 * prices LowVig's line, so its crossings repeat LowVig's; docs/simulator.md, "Stop 55"). A run is
 * the sightings of one pair's market in a row that show it crossed; it ends at the first sighting
 * that does not (timed from the run's first, with which of the two books had moved since the
 * sighting before), or when the market is no longer seen before the game. What the simulator's
 * books correcting a crossed price is set from (`pipeline/feeds/simulator/crossing.ts`;
 * docs/simulator.md, "Stop 56"); `bench/pregame-steps.ts` prints them.
 */

/** LowVig's twin, left out of the pairs. */
const TWIN = 'betonlineag';

/** Which of the pair (in name order) had moved a price between the last crossed sighting and the first that was not. */
export type RunEnd = 'first' | 'second' | 'both' | 'neither' | 'unseen' | 'open';

export interface CrossingRun {
  /** The two books, in name order. */
  books: [string, string];
  /** The recording's market key (`h2h`, `spreads`, `totals`). */
  market: string;
  /** The first and last sightings that showed it crossed. */
  firstAt: number;
  lastAt: number;
  sightings: number;
  /** From the first crossed sighting to the first that was not, ms; null when none was seen (`unseen`, `open`). */
  endedMs: number | null;
  endedBy: RunEnd;
  /** The best arbitrage of the run, percent profit. */
  bestProfit: number;
}

/** Outcome (name and line) -> decimal price of one book's market. */
type Prices = Map<string, number>;

interface Open {
  run: CrossingRun;
}

/** A book's markets in a recorded event, by market key, as decimal prices by outcome and line. */
function marketsOf(bookmaker: WireBookmaker): Map<string, Prices> {
  const out = new Map<string, Prices>();
  for (const raw of bookmaker.markets) {
    const m = parseMarket(raw);
    if (m === null) continue;
    const prices: Prices = new Map();
    for (const rawOutcome of m.outcomes) {
      const o = parseOutcome(rawOutcome);
      const american = o === null ? null : toAmerican(o.price);
      if (o !== null && american !== null) prices.set(`${o.name}|${o.point ?? ''}`, americanToDecimal(american));
    }
    out.set(m.key, prices);
  }
  return out;
}

/** The arbitrage two markets make together, percent profit (0 or less: none), or null when they are not the same outcomes at the same line. */
function crossing(a: Prices, b: Prices): number | null {
  if (a.size < 2 || a.size !== b.size) return null;
  let implied = 0;
  for (const [outcome, price] of a) {
    const other = b.get(outcome);
    if (other === undefined) return null;
    implied += 1 / Math.max(price, other);
  }
  return 100 * (1 / implied - 1);
}

const samePrices = (a: Prices, b: Prices): boolean => a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);

export class Crossings {
  /** Sightings of two books' market at the same line, and how many of them crossed. */
  sightings = 0;
  crossed = 0;
  readonly runs: CrossingRun[] = [];
  private readonly open = new Map<string, Open>();
  /** Each pair's prices at its last sighting, by `event market first second`. */
  private readonly last = new Map<string, { a: Prices; b: Prices }>();

  add(snapshot: RecordedSnapshot): void {
    const seen = new Set<string>();
    for (const raw of snapshot.data) {
      const event = parseEvent(raw);
      if (event === null || event.commenceTime <= snapshot.timestamp) continue;
      const books = new Map<string, Map<string, Prices>>();
      for (const rawBook of event.bookmakers) {
        const b = parseBookmaker(rawBook);
        if (b !== null && b.key !== TWIN) books.set(b.key, marketsOf(b));
      }
      const names = [...books.keys()].sort();
      for (let i = 0; i < names.length; i++) {
        for (let j = i + 1; j < names.length; j++) {
          const first = names[i] ?? '';
          const second = names[j] ?? '';
          for (const [market, a] of books.get(first) ?? []) {
            const b = books.get(second)?.get(market);
            if (b === undefined) continue;
            const profit = crossing(a, b);
            if (profit !== null)
              this.sighting(snapshot.timestamp, `${event.id} ${market} ${first} ${second}`, [first, second], market, a, b, profit, seen);
          }
        }
      }
    }
    for (const [key, open] of this.open) {
      if (seen.has(key)) continue;
      open.run.endedBy = 'unseen';
      this.runs.push(open.run);
      this.open.delete(key);
    }
  }

  private sighting(
    at: number,
    key: string,
    books: [string, string],
    market: string,
    a: Prices,
    b: Prices,
    profit: number,
    seen: Set<string>,
  ): void {
    this.sightings++;
    seen.add(key);
    const before = this.last.get(key);
    this.last.set(key, { a, b });
    const open = this.open.get(key);
    if (profit > 0) {
      this.crossed++;
      if (open !== undefined) {
        open.run.lastAt = at;
        open.run.sightings++;
        open.run.bestProfit = Math.max(open.run.bestProfit, profit);
      } else {
        this.open.set(key, {
          run: { books, market, firstAt: at, lastAt: at, sightings: 1, endedMs: null, endedBy: 'open', bestProfit: profit },
        });
      }
    } else if (open !== undefined) {
      const firstMoved = before !== undefined && !samePrices(before.a, a);
      const secondMoved = before !== undefined && !samePrices(before.b, b);
      open.run.endedMs = at - open.run.firstAt;
      open.run.endedBy = firstMoved && secondMoved ? 'both' : firstMoved ? 'first' : secondMoved ? 'second' : 'neither';
      this.runs.push(open.run);
      this.open.delete(key);
    }
  }

  /** Every run, those still crossed at the last snapshot included (`open`). */
  allRuns(): CrossingRun[] {
    return [...this.runs, ...[...this.open.values()].map((o) => o.run)];
  }
}

/**
 * The mean of an exponential lifetime that best explains the runs (maximum likelihood), ms: a run
 * that ended lasted between its last crossed sighting and the first that was not; one that was
 * no longer seen, or is still crossed, at least to its last. Null without an ended run.
 */
export function meanLifetimeMs(runs: readonly CrossingRun[]): number | null {
  if (!runs.some((r) => r.endedMs !== null)) return null;
  const logLikelihood = (mean: number): number =>
    runs.reduce((sum, r) => {
      const lo = r.lastAt - r.firstAt;
      if (r.endedMs === null) return sum - lo / mean;
      return sum + Math.log(Math.max(1e-300, Math.exp(-lo / mean) - Math.exp(-r.endedMs / mean)));
    }, 0);
  // Golden-section search over a minute to a week: the likelihood has one peak.
  let lo = 60_000;
  let hi = 7 * 24 * 3_600_000;
  const g = (Math.sqrt(5) - 1) / 2;
  for (let k = 0; k < 200; k++) {
    const x1 = hi - g * (hi - lo);
    const x2 = lo + g * (hi - lo);
    if (logLikelihood(x1) < logLikelihood(x2)) lo = x1;
    else hi = x2;
  }
  return (lo + hi) / 2;
}
