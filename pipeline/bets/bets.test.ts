import { describe, expect, it } from 'vitest';
import type { BetRecord, ClosingLine, LeagueDef } from '../../schemas/index.js';
import { betProfit, closeOfBet, closingValue, expectedProfit, gradeBet, settleOnScore } from './index.js';

const spread = (selection: 'home' | 'away', line: number) => ({ market: 'point_spread' as const, selection, line });
const total = (selection: 'over' | 'under', line: number) => ({ market: 'total_points' as const, selection, line });
const moneyline = (selection: 'home' | 'away' | 'draw') => ({ market: 'moneyline' as const, selection, line: null });

describe('settling a bet on the final score', () => {
  it('wins, loses or pushes a two-way moneyline; a tie pushes', () => {
    expect(settleOnScore(moneyline('home'), { home: 24, away: 17 }, false)).toBe('win');
    expect(settleOnScore(moneyline('away'), { home: 24, away: 17 }, false)).toBe('loss');
    expect(settleOnScore(moneyline('home'), { home: 20, away: 20 }, false)).toBe('push');
  });

  it('gives a three-way tie to the draw', () => {
    expect(settleOnScore(moneyline('home'), { home: 1, away: 1 }, true)).toBe('loss');
    expect(settleOnScore(moneyline('draw'), { home: 1, away: 1 }, true)).toBe('win');
    expect(settleOnScore(moneyline('draw'), { home: 2, away: 1 }, true)).toBe('loss');
  });

  it('settles spreads from the selection’s own line: home -3 on a 3-point win pushes, -3.5 loses, away +3.5 wins', () => {
    expect(settleOnScore(spread('home', -3), { home: 24, away: 21 }, false)).toBe('push');
    expect(settleOnScore(spread('home', -3.5), { home: 24, away: 21 }, false)).toBe('loss');
    expect(settleOnScore(spread('away', 3.5), { home: 24, away: 21 }, false)).toBe('win');
  });

  it('splits a quarter handicap into halves a quarter either side', () => {
    // -0.25 on a draw: half on 0 (push), half on -0.5 (loss).
    expect(settleOnScore(spread('home', -0.25), { home: 1, away: 1 }, true)).toBe('half_loss');
    // +0.25 on a draw: half on 0 (push), half on +0.5 (win).
    expect(settleOnScore(spread('away', 0.25), { home: 1, away: 1 }, true)).toBe('half_win');
    // -0.75 on a one-goal win: half on -0.5 (win), half on -1 (push).
    expect(settleOnScore(spread('home', -0.75), { home: 2, away: 1 }, true)).toBe('half_win');
    // -0.75 on a two-goal win: both halves win.
    expect(settleOnScore(spread('home', -0.75), { home: 3, away: 1 }, true)).toBe('win');
  });

  it('splits a quarter total the same way', () => {
    expect(settleOnScore(total('over', 2.25), { home: 1, away: 1 }, true)).toBe('half_loss');
    expect(settleOnScore(total('under', 2.25), { home: 1, away: 1 }, true)).toBe('half_win');
    expect(settleOnScore(total('over', 2.75), { home: 2, away: 1 }, true)).toBe('half_win');
    expect(settleOnScore(total('over', 44.5), { home: 24, away: 21 }, false)).toBe('win');
    expect(settleOnScore(total('under', 45), { home: 24, away: 21 }, false)).toBe('push');
  });

  it('leaves markets a final score cannot settle open', () => {
    expect(settleOnScore({ market: 'player_prop', selection: 'over', line: 1.5 }, { home: 1, away: 0 }, false)).toBeNull();
    expect(settleOnScore({ market: '1st_half', selection: 'home', line: -0.5 }, { home: 1, away: 0 }, false)).toBeNull();
  });
});

describe('the profit of a settled bet', () => {
  it('pays stake x (d - 1) on a win and takes the stake on a loss; push and void return it', () => {
    expect(betProfit('win', 100, 2.5)).toBe(150);
    expect(betProfit('loss', 100, 2.5)).toBe(-100);
    expect(betProfit('push', 100, 2.5)).toBe(0);
    expect(betProfit('void', 100, 2.5)).toBe(0);
  });

  it('pays half the stake on a half win and loses half on a half loss', () => {
    expect(betProfit('half_win', 100, 1.75)).toBe(37.5);
    expect(betProfit('half_loss', 100, 1.75)).toBe(-50);
  });

  it('reduces a dead heat: two tied for one place pay half the stake at the full price and lose the other half', () => {
    // 10 at 5.0, factor 1/2: 5 returns 25, the other 5 is lost: 25 - 10 = +15.
    expect(betProfit('dead_heat', 10, 5, 0.5)).toBe(15);
    expect(betProfit('dead_heat', 10, 3, 1 / 3)).toBe(0);
  });
});

describe('closing-line value of a bet', () => {
  it('compares the price taken with the raw close and with the fair close, as percent and as probability edge', () => {
    // Taken at 2.5 (+150), closed at 2.0 (+100) at the book, fair close 45 %.
    const v = closingValue(2.5, 2, 0.45);
    expect(v.priceClvPercent).toBe(25);
    expect(v.priceProbabilityEdge).toBeCloseTo(0.5 - 0.4, 15);
    expect(v.noVigClvPercent).toBeCloseTo((0.45 * 2.5 - 1) * 100, 12);
    expect(v.noVigClvPercent).toBeCloseTo(12.5, 12);
    expect(v.noVigProbabilityEdge).toBeCloseTo(0.05, 15);
  });

  it('is negative when the price taken was worse than the close', () => {
    const v = closingValue(1.8, 2, 0.5);
    expect(v.priceClvPercent).toBeCloseTo(-10, 12);
    expect(v.noVigClvPercent).toBeCloseTo(-10, 12);
    expect(v.noVigProbabilityEdge).toBeCloseTo(0.5 - 1 / 1.8, 15);
  });

  it('is null in each form whose close is missing', () => {
    expect(closingValue(2, null, 0.5)).toEqual({
      priceClvPercent: null,
      priceProbabilityEdge: null,
      noVigClvPercent: 0,
      noVigProbabilityEdge: 0,
    });
    expect(closingValue(2, 2, null).noVigClvPercent).toBeNull();
  });

  it('turns the no-vig CLV into an expected profit on the stake', () => {
    expect(expectedProfit(200, 5)).toBe(10);
    expect(expectedProfit(200, null)).toBe(0);
  });
});

const T = Date.UTC(2026, 8, 13, 17);
function close(book: string, selection: 'home' | 'away', line: number, priceAmerican: number, power: number | null): ClosingLine {
  return {
    rowKey: `${book}|${selection}|${line}`,
    eventId: 'ev1',
    sport: 'football',
    league: 'nfl',
    homeTeamId: 'h',
    awayTeamId: 'a',
    eventStartTime: T,
    book,
    market: 'point_spread',
    participant: null,
    statCategory: null,
    selection,
    line,
    priceAmerican,
    priceDecimal: 0,
    impliedProbability: 0,
    bookNoVigProbability: null,
    noVig: { power, multiplicative: null, additive: null, shin: null },
    referenceBooks: power === null ? [] : ['pinnacle'],
    oddsTs: T - 60_000,
    capturedAt: T,
  };
}
const NFL = { threeWay: false } as LeagueDef;
const closes = [
  close('draftkings', 'home', -3.5, -110, 0.48),
  close('draftkings', 'away', 3.5, -110, 0.52),
  close('pinnacle', 'home', -3.5, -105, 0.48),
  close('pinnacle', 'away', 3.5, -115, 0.52),
];
const homeAtDk = {
  book: 'draftkings',
  market: 'point_spread' as const,
  participant: null,
  statCategory: null,
  selection: 'home' as const,
  line: -3.5,
};

describe("a bet's close", () => {
  it("is its book's closing price and, by default, the references' stored no-vig close", () => {
    expect(closeOfBet(homeAtDk, closes, { method: 'power', sharpBook: null }, NFL)).toEqual({
      closingPriceAmerican: -110,
      closingDecimal: 1 + 100 / 110,
      fairProbability: 0.48,
      fairBooks: ['pinnacle'],
    });
  });

  it('de-vigs the chosen sharp book’s close of both sides by the chosen method', () => {
    const r = (american: number): number => -american / (-american + 100);
    const home = r(-105);
    const away = r(-115);
    const got = closeOfBet(homeAtDk, closes, { method: 'multiplicative', sharpBook: 'pinnacle' }, NFL);
    expect(got.fairProbability).toBeCloseTo(home / (home + away), 12);
    expect(got.fairBooks).toEqual(['pinnacle']);
  });

  it('has no close at a line the market moved off', () => {
    const got = closeOfBet({ ...homeAtDk, line: -4 }, closes, { method: 'power', sharpBook: 'pinnacle' }, NFL);
    expect(got).toEqual({ closingPriceAmerican: null, closingDecimal: null, fairProbability: null, fairBooks: [] });
  });
});

describe('grading a logged bet', () => {
  const bet: BetRecord = {
    id: 'bet_1',
    accountId: 'acct_1',
    eventId: 'ev1',
    sport: 'football',
    league: 'nfl',
    eventStartTime: T,
    market: 'point_spread',
    participant: null,
    statCategory: null,
    selection: 'home',
    line: -3.5,
    book: 'draftkings',
    priceAmerican: 100,
    priceDecimal: 2,
    stake: 50,
    placedAt: T - 3_600_000,
    sourceId: null,
    devigMethod: 'power',
    sharpBook: null,
    createdAt: T - 3_600_000,
    deletedAt: null,
    version: 1,
  };

  it('is pending before its event closes', () => {
    const g = gradeBet(bet, [], null, NFL);
    expect(g.status).toBe('pending');
    expect(g.noVigClvPercent).toBeNull();
    expect(g.expectedProfit).toBeNull();
  });

  it('is graded at the close: +100 against a 48 % fair close is -4 %, an expected loss of 2 on 50', () => {
    const g = gradeBet(bet, closes, null, NFL);
    expect(g.status).toBe('graded');
    expect(g.noVigClvPercent).toBeCloseTo(-4, 12);
    expect(g.expectedProfit).toBeCloseTo(-2, 12);
    expect(g.priceClvPercent).toBeCloseTo((2 / (1 + 100 / 110) - 1) * 100, 12);
    expect(g.result).toBeNull();
  });

  it('is settled on the final score and voided by a cancelled game', () => {
    const won = gradeBet(bet, closes, { eventId: 'ev1', status: 'final', homeScore: 27, awayScore: 20 }, NFL);
    expect(won).toMatchObject({ status: 'settled', result: 'win', profit: 50 });
    const off = gradeBet(bet, [], { eventId: 'ev1', status: 'cancelled', homeScore: 0, awayScore: 0 }, NFL);
    expect(off).toMatchObject({ status: 'settled', result: 'void', profit: 0 });
  });

  it('placed in play has no close to beat: pending beside a captured close, then settled on the score', () => {
    const inPlay = { ...bet, placedAt: T + 600_000 };
    const open = gradeBet(inPlay, closes, null, NFL);
    expect(open).toMatchObject({
      status: 'pending',
      closingPriceAmerican: null,
      closingFairProbability: null,
      fairBooks: [],
      priceClvPercent: null,
      noVigClvPercent: null,
      expectedProfit: null,
    });
    const lost = gradeBet(inPlay, closes, { eventId: 'ev1', status: 'final', homeScore: 20, awayScore: 27 }, NFL);
    expect(lost).toMatchObject({ status: 'settled', result: 'loss', profit: -50, noVigClvPercent: null });
  });
});
