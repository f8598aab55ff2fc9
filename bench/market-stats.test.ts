import { describe, expect, it } from 'vitest';
import { LEAGUES } from '../schemas/index.js';
import type { Opportunity, RawTick } from '../schemas/index.js';
import { IN_PLAY_AFTER_MS, MarketStatsObserver, confirmedMarkets } from './market-stats.js';
import { ProcessorChain } from './processor-chain.js';

const START = Date.UTC(2026, 0, 1, 20);
const MINUTE = 60_000;

/** The pipeline's processors with the statistics watching their output, and a feed into both. */
function observedChain(): { chain: ProcessorChain; stats: MarketStatsObserver; feed: (at: number, ticks: RawTick[]) => void } {
  const chain = new ProcessorChain();
  const stats = new MarketStatsObserver(LEAGUES);
  const feed = (at: number, ticks: RawTick[]): void => {
    const out = chain.feed(at, ticks);
    for (const e of out.events) stats.event(e);
    for (const c of out.changes) stats.change(c);
  };
  return { chain, stats, feed };
}

/** One book's moneyline of the game, both sides, set at `ts` (in play from the start). */
function moneyline(book: string, home: number, away: number, ts: number): RawTick[] {
  const base = {
    book,
    bookEventId: `${book}-1`,
    sport: 'basketball',
    league: 'nba',
    homeTeam: 'Boston Celtics',
    awayTeam: 'Miami Heat',
    startTime: START,
    isLive: ts >= START,
    market: 'moneyline' as const,
    line: null,
    participant: null,
    statCategory: null,
    status: 'open' as const,
    ts,
    oddsChangedAt: ts,
    selectionId: null,
  };
  return [
    { ...base, outcome: 'Boston Celtics', priceAmerican: home },
    { ...base, outcome: 'Miami Heat', priceAmerican: away },
  ];
}

/** The live figures after one sample of Pinnacle's line (set at `referenceTs`) beside a soft book well off it. */
function liveAfter(referenceTs: number): { ev: number | null; pregame: number | null; referenced: number } {
  const at = START + 20 * MINUTE;
  const chain = new ProcessorChain();
  const stats = new MarketStatsObserver(LEAGUES);
  const out = chain.feed(at, [...moneyline('pinnacle', -200, 180, referenceTs), ...moneyline('draftkings', 150, -180, at - MINUTE)]);
  for (const e of out.events) stats.event(e);
  for (const c of out.changes) stats.change(c);
  stats.sample(at, chain.opportunities.active());
  const live = stats.result().live;
  return { ev: live.evPer100Markets, pregame: live.pregameReferenceEvPer100, referenced: live.referencedMarkets };
}

describe('MarketStatsObserver, live +EV', () => {
  it('counts a +EV row against a reference priced in play', () => {
    expect(liveAfter(START + IN_PLAY_AFTER_MS + MINUTE)).toEqual({ ev: 100, pregame: 0, referenced: 1 });
  });

  it('does not measure live +EV against a closing line left standing after the start', () => {
    expect(liveAfter(START + MINUTE)).toEqual({ ev: null, pregame: 100, referenced: 0 });
  });
});

describe('MarketStatsObserver, live follows', () => {
  /** Pinnacle moves its line at `moveAt` after a pre-game price; DraftKings follows ten minutes later. */
  function followsAfter(moveAt: number): { follows: number; chances: number } {
    const { stats, feed } = observedChain();
    feed(START - 30 * MINUTE, [
      ...moneyline('pinnacle', -110, -110, START - 30 * MINUTE),
      ...moneyline('draftkings', -115, -115, START - 30 * MINUTE),
    ]);
    feed(moveAt, moneyline('pinnacle', -200, 180, moveAt));
    feed(moveAt + 10 * MINUTE, moneyline('draftkings', -210, 170, moveAt + 10 * MINUTE));
    const live = stats.result().live;
    return { follows: live.follows, chances: live.followChances };
  }

  it('times soft books after a sharp move made in play', () => {
    // Both halves of Pinnacle's new line arrive as changes, so the move is seen twice, followed twice.
    expect(followsAfter(START + 20 * MINUTE)).toEqual({ follows: 2, chances: 2 });
  });

  it("does not take a lead book's price set at the start, its closing line, for a move in play", () => {
    expect(followsAfter(START + MINUTE)).toEqual({ follows: 0, chances: 0 });
  });
});

describe('MarketStatsObserver, sampling by phase', () => {
  /** One pre-game moneyline of two books, sampled once for the phases given. */
  function prematchMarketsAfter(phases?: ReadonlySet<'prematch' | 'live'>): number {
    const at = START - 30 * MINUTE;
    const chain = new ProcessorChain();
    const stats = new MarketStatsObserver(LEAGUES);
    const out = chain.feed(at, [...moneyline('pinnacle', -110, -110, at), ...moneyline('draftkings', -115, -105, at)]);
    for (const e of out.events) stats.event(e);
    for (const c of out.changes) stats.change(c);
    stats.sample(at, chain.opportunities.active(), phases);
    return stats.result().prematch.markets;
  }

  it('samples both phases by default', () => {
    expect(prematchMarketsAfter()).toBe(1);
  });

  it('leaves a phase out of a sample that does not ask for it', () => {
    expect(prematchMarketsAfter(new Set(['live']))).toBe(0);
  });
});

describe('MarketStatsObserver, arbitrage by phase', () => {
  it('does not count an arbitrage of a started game as pre-match, though its other leg is a pre-game row not yet replaced', () => {
    const at = START + 20 * MINUTE;
    const chain = new ProcessorChain();
    const stats = new MarketStatsObserver(LEAGUES);
    const out = chain.feed(at, [
      ...moneyline('pinnacle', -110, -110, START - 10 * MINUTE),
      ...moneyline('fanduel', -110, -110, START - 10 * MINUTE),
      ...moneyline('draftkings', 150, -180, at - MINUTE),
    ]);
    for (const e of out.events) stats.event(e);
    for (const c of out.changes) stats.change(c);
    expect(chain.opportunities.active().some((o) => o.kind === 'arbitrage' && o.event.isLive)).toBe(true);
    stats.sample(at, chain.opportunities.active(), new Set(['prematch']));
    const prematch = stats.result().prematch;
    expect([prematch.markets, prematch.arbitrageRate]).toEqual([1, 0]);
  });
});

describe('MarketStatsObserver, arbitrage runs', () => {
  it("times each market's arbitrage from the first to the last of the samples in a row that show it, an open one as it stood", () => {
    const { chain, stats, feed } = observedChain();
    const at = (minutes: number): number => START - 300 * MINUTE + minutes * MINUTE;
    const sample = (minutes: number): void => stats.sample(at(minutes), chain.opportunities.active(), new Set(['prematch']));
    // FanDuel's home +110 against Pinnacle's away -105: an arbitrage, at samples 0, 30 and 60.
    feed(at(0), [...moneyline('pinnacle', -120, -105, at(0)), ...moneyline('fanduel', 110, -130, at(0))]);
    sample(0);
    sample(30);
    sample(60);
    // Gone at 90, back at 120 and standing at the last sample, 150.
    feed(at(90), moneyline('fanduel', -110, -110, at(90)));
    sample(90);
    feed(at(120), moneyline('fanduel', 110, -130, at(120)));
    sample(120);
    sample(150);
    const prematch = stats.result().prematch;
    // Runs of 60 and 30 minutes: the median reads the lower of two (`percentile`).
    expect([prematch.arbitrageRuns, prematch.arbitrageRunP50Minutes, prematch.arbitrageRunMaxMinutes]).toEqual([2, 30, 60]);
    expect(prematch.arbitrageRate).toBeCloseTo((100 * 5) / 6, 9);
  });
});

describe('MarketStatsObserver, stale share', () => {
  const at = START - 60 * MINUTE;
  /** A pre-match +EV row whose first price to go stale has `thresholdSeconds` and went stale `staleFor` ms ago (fresh when negative). */
  function evRow(thresholdSeconds: number, staleFor: number): Opportunity {
    const freshUntil = at - staleFor;
    return {
      kind: 'ev',
      market: 'moneyline',
      event: { startTime: START, isLive: false },
      methods: { power: { evPercent: 1 } },
      references: [{ ts: at - 10 * MINUTE }],
      oldestOddsTs: freshUntil - thresholdSeconds * 1000,
      freshUntil,
      staleAfterSeconds: thresholdSeconds,
    } as unknown as Opportunity;
  }

  it("counts only rows judged by their book's measured cadence, not by the ledger's 60 s floor of its warm-up, and shows the floor-judged share beside it", () => {
    const stats = new MarketStatsObserver(LEAGUES);
    // A floor-judged stale row (a book the ledger has not measured yet), then two measured rows, one stale.
    stats.sample(at, [evRow(60, MINUTE), evRow(900, MINUTE), evRow(900, -MINUTE)]);
    const pre = stats.result().prematch;
    expect(pre.staleShare).toBe(50);
    expect(pre.staleShareWithFloor).toBeCloseTo(200 / 3, 10);
  });

  it('does not measure the share when every row is still floor-judged', () => {
    const stats = new MarketStatsObserver(LEAGUES);
    stats.sample(at, [evRow(60, MINUTE)]);
    const pre = stats.result().prematch;
    expect(pre.staleShare).toBeNull();
    expect(pre.staleShareWithFloor).toBe(100);
  });
});

describe('MarketStatsObserver, books off the consensus', () => {
  /** One book's full-game total at 44.5, over and under, set at `ts`. */
  function total(book: string, over: number, under: number, ts: number): RawTick[] {
    return moneyline(book, over, under, ts).map((t, i) => ({
      ...t,
      market: 'total_points' as const,
      outcome: i === 0 ? 'Over' : 'Under',
      line: 44.5,
    }));
  }

  it('measures each book against the median of the books pricing the same line, per market type', () => {
    const at = START - 60 * MINUTE;
    const chain = new ProcessorChain();
    const stats = new MarketStatsObserver(LEAGUES);
    // Moneylines all alike; totals at no-vig 50 %, 52.63 % (the median) and 62.5 % (prices whose decimals are exact).
    const out = chain.feed(at, [
      ...['pinnacle', 'draftkings', 'fanduel'].flatMap((b) => moneyline(b, -110, -110, at)),
      ...total('pinnacle', -110, -110, at),
      ...total('draftkings', -125, 100, at),
      ...total('fanduel', -200, 150, at),
    ]);
    for (const e of out.events) stats.event(e);
    for (const c of out.changes) stats.change(c);
    stats.sample(at, chain.opportunities.active());
    const pre = stats.result().prematch;
    const noVig = (a: number, b: number): number => a / (a + b);
    const median = noVig(1 / 1.8, 1 / 2);
    expect(pre.offConsensusP50['moneyline']).toBe(0);
    expect(pre.offConsensusP90['moneyline']).toBe(0);
    expect(pre.offConsensusP50['total_points']).toBeCloseTo(100 * (median - 0.5), 10);
    expect(pre.offConsensusP90['total_points']).toBeCloseTo(100 * (noVig(1 / 1.5, 1 / 2.5) - median), 10);
    expect(pre.offConsensusP90['point_spread']).toBeNull();
  });
});

describe('MarketStatsObserver, confirmation ages', () => {
  const SECOND = 1000;

  it("reads each book's market's age off the board at the sample, one per market, in play only when confirmed since the start", () => {
    const { chain, stats, feed } = observedChain();
    // Before the game: three books' moneylines confirmed 20 s, 50 s and 400 s before the sample.
    const pre = START - 60 * MINUTE;
    feed(pre, [
      ...moneyline('pinnacle', -110, -110, pre - 20 * SECOND),
      ...moneyline('draftkings', -115, -105, pre - 50 * SECOND),
      ...moneyline('fanduel', -112, -108, pre - 400 * SECOND),
    ]);
    stats.sample(pre, chain.opportunities.active(), new Set(['prematch']));
    // In play: two books confirmed 30 s and 90 s before the sample, and a pre-game line left standing (not counted).
    const live = START + 20 * MINUTE;
    feed(live, [
      ...moneyline('pinnacle', -150, 130, live - 30 * SECOND),
      ...moneyline('draftkings', -160, 135, live - 90 * SECOND),
      ...moneyline('fanduel', -112, -108, START - MINUTE).map((t) => ({ ...t, isLive: true })),
    ]);
    stats.sample(live, chain.opportunities.active(), new Set(['live']));
    const r = stats.result();
    expect([r.prematch.confirmationAgeP50, r.prematch.confirmationAgeP95, r.prematch.confirmationAgeOver5Min]).toEqual([
      50,
      400,
      (100 * 1) / 3,
    ]);
    expect([r.live.confirmationAgeP50, r.live.confirmationAgeP95, r.live.confirmationAgeOver5Min]).toEqual([30, 90, 0]);
  });

  it("takes the books' own times when given, not the board's, one per book's market", () => {
    const at = START - 60 * MINUTE;
    const chain = new ProcessorChain();
    const stats = new MarketStatsObserver(LEAGUES);
    // The board's rows were all collected at the sample; the books last confirmed them 10 s, 70 s and 130 s before.
    const collected = [
      ...moneyline('pinnacle', -110, -110, at),
      ...moneyline('draftkings', -115, -105, at),
      ...moneyline('fanduel', -112, -108, at),
    ];
    const out = chain.feed(at, collected);
    for (const e of out.events) stats.event(e);
    for (const c of out.changes) stats.change(c);
    const own = [
      ...moneyline('pinnacle', -110, -110, at - 10 * SECOND),
      ...moneyline('draftkings', -115, -105, at - 70 * SECOND),
      ...moneyline('fanduel', -112, -108, at - 130 * SECOND),
    ];
    expect(confirmedMarkets(own)).toHaveLength(3);
    stats.sample(at, chain.opportunities.active(), undefined, confirmedMarkets(own));
    const pre = stats.result().prematch;
    expect([pre.confirmationAgeP50, pre.confirmationAgeP95, pre.confirmationAgeOver5Min]).toEqual([70, 130, 0]);
  });
});
