/**
 * Closes computed from a recording of The Odds API alone, for the replay tests that check the
 * pipeline's closing lines against them: the recording's events and prices in our market and
 * selection names, power de-vig written out, and the closing fair probability of a line from the
 * one sharp book the recordings have (LowVig), else BetOnline.
 */
import { expect } from 'vitest';
import { ManualClock } from '../../pipeline/clock.js';
import { ReplayFeed } from '../../pipeline/feeds/theoddsapi/index.js';
import { silentLogger } from '../../pipeline/feeds/feed-runtime.js';
import { startTestSystem } from './system.js';
import type { TestSystem } from './system.js';
export interface Outcome {
  name: string;
  price: number;
  point?: number;
}
export interface RecordedEvent {
  id: string;
  commence_time: string;
  home_team: string;
  away_team: string;
  bookmakers: { key: string; markets: { key: string; outcomes: Outcome[] }[] }[];
}

const BOOK: Readonly<Record<string, string>> = { williamhill_us: 'caesars' };
const MARKET: Readonly<Record<string, string>> = { h2h: 'moneyline', spreads: 'point_spread', totals: 'total_points' };

export interface Price {
  book: string;
  market: string;
  selection: string;
  line: number | null;
  american: number;
}

export function pricesOf(e: RecordedEvent): Price[] {
  const out: Price[] = [];
  for (const b of e.bookmakers) {
    for (const m of b.markets) {
      const market = MARKET[m.key];
      if (market === undefined) continue;
      for (const o of m.outcomes) {
        const selection = o.name === e.home_team ? 'home' : o.name === e.away_team ? 'away' : o.name.toLowerCase();
        out.push({ book: BOOK[b.key] ?? b.key, market, selection, line: o.point ?? null, american: o.price });
      }
    }
  }
  return out;
}

export const decimal = (a: number): number => (a > 0 ? 1 + a / 100 : 1 + 100 / -a);

/** Power de-vig written out: the k with sum p_i^k = 1, by bisection. */
export function powerDevig(americans: number[]): number[] {
  const implied = americans.map((a) => 1 / decimal(a));
  let lo = 0.5;
  let hi = 2;
  for (let i = 0; i < 200; i++) {
    const k = (lo + hi) / 2;
    const sum = implied.reduce((s, p) => s + p ** k, 0);
    if (sum > 1) lo = k;
    else hi = k;
  }
  const k = (lo + hi) / 2;
  return implied.map((p) => p ** k);
}

/** The selection's fair probability at its line from one book's complete two-way market, or null. */
export function fairFrom(prices: Price[], book: string, p: { market: string; selection: string; line: number | null }): number | null {
  const canonical = (x: { selection: string; line: number | null }): number | null =>
    x.line === null ? null : x.selection === 'away' ? -x.line : x.line;
  // Sides are two-way, or three-way where the book prices a draw (soccer).
  const threeWay = prices.some((x) => x.book === book && x.market === p.market && x.selection === 'draw');
  const outcomes =
    p.selection === 'over' || p.selection === 'under' ? ['over', 'under'] : threeWay ? ['home', 'away', 'draw'] : ['home', 'away'];
  const market = outcomes.map((s) =>
    prices.find((x) => x.book === book && x.market === p.market && x.selection === s && canonical(x) === canonical(p)),
  );
  if (market.some((x) => x === undefined)) return null;
  const fair = powerDevig(market.map((x) => (x as Price).american));
  return fair[outcomes.indexOf(p.selection)] ?? null;
}

export function closingFair(prices: Price[], p: { market: string; selection: string; line: number | null }): number | null {
  return fairFrom(prices, 'lowvig', p) ?? fairFrom(prices, 'betonlineag', p);
}

/**
 * The recording replayed through the whole system as fast as it drains (each snapshot stored
 * before the next), with the recording's event ids mapped to canonical ones. The caller closes
 * the system.
 */
export async function replayThroughSystem(file: string): Promise<{ sys: TestSystem; canonical: Map<string, string> }> {
  const clock = new ManualClock(0);
  let sys: TestSystem | null = null;
  const feed = new ReplayFeed({ file, speed: 1e12, clock, logger: silentLogger, sleep: async () => void (await sys?.drained(30_000)) });
  sys = await startTestSystem({ SINK_MAX_WAIT_MS: '0' }, { clock, feed: () => feed });
  try {
    expect((await feed.done).completed).toBe(true);
    expect(await sys.drained(30_000)).toBe(true);
    const events = await sys.store.query<{ id: string; ext: string[] }>('SELECT id, mapValues(external_ids) AS ext FROM events FINAL');
    const canonical = new Map<string, string>();
    for (const e of events) for (const x of e.ext) canonical.set(x, e.id);
    return { sys, canonical };
  } catch (e) {
    await sys.close();
    throw e;
  }
}
