import { describe, expect, it } from 'vitest';
import type { ArbitrageOpportunity, LowHoldOpportunity, MiddleOpportunity } from '../../schemas/index.js';
import { DEFAULT_PHANTOM_POLICY, guaranteedProfitPercent, phantomWarnings } from './phantom.js';

const T0 = Date.UTC(2026, 0, 1);
const policy = { maxProfitPercent: 10, veryStaleFactor: 5 };

/** A pre-match arbitrage whose first-to-go-stale price was confirmed at T0 with a 60 s threshold. */
function arb(
  profitPercent: number,
  clock: { freshUntil: number | null; staleAfterSeconds: number | null } = fresh60,
): ArbitrageOpportunity {
  return {
    id: 'a1',
    kind: 'arbitrage',
    eventId: 'e1',
    situation: 'e1|moneyline|',
    market: 'moneyline',
    family: 'side',
    participant: null,
    statCategory: null,
    event: { sport: 'basketball', league: 'nba', homeTeamId: 'nba-bos', awayTeamId: 'nba-mia', startTime: T0, isLive: false },
    legs: [],
    oldestOddsTs: T0,
    oldestOddsAgeSeconds: 0,
    ...clock,
    possiblyStale: false,
    warnings: [],
    detectedAt: T0,
    lastSeenAt: T0,
    expiredAt: null,
    expireReason: null,
    value: profitPercent,
    peakValue: profitPercent,
    line: null,
    profitPercent,
    impliedSum: 1 / (1 + profitPercent / 100),
  };
}
const fresh60 = { freshUntil: T0 + 60_000, staleAfterSeconds: 60 };

describe('the profit ceiling (LIVE_HIGH_PROFIT_SUSPICIOUS)', () => {
  it('flags an arbitrage just over the ceiling and not one at it or just under', () => {
    expect(phantomWarnings(arb(10.01), T0, policy)).toEqual(['LIVE_HIGH_PROFIT_SUSPICIOUS']);
    expect(phantomWarnings(arb(10), T0, policy)).toEqual([]);
    expect(phantomWarnings(arb(9.99), T0, policy)).toEqual([]);
  });

  it('applies to pre-match and live alike, as the reference drops every arbitrage above 10 %', () => {
    const live = { ...arb(12), event: { ...arb(12).event, isLive: true } };
    expect(phantomWarnings(live, T0, policy)).toEqual(['LIVE_HIGH_PROFIT_SUSPICIOUS']);
    expect(phantomWarnings(arb(12), T0, policy)).toEqual(['LIVE_HIGH_PROFIT_SUSPICIOUS']);
  });

  it('reads a negative low hold and a middle that cannot lose as the profit they guarantee', () => {
    const lowHold = { ...arb(0), kind: 'low_hold', holdPercent: -10.5 } as unknown as LowHoldOpportunity;
    expect(guaranteedProfitPercent(lowHold)).toBe(10.5);
    expect(phantomWarnings(lowHold, T0, policy)).toEqual(['LIVE_HIGH_PROFIT_SUSPICIOUS']);
    const middle = (worst: number): MiddleOpportunity =>
      ({ ...arb(0), kind: 'middle', worstCaseProfitPercent: worst }) as unknown as MiddleOpportunity;
    expect(guaranteedProfitPercent(middle(11))).toBe(11);
    expect(guaranteedProfitPercent(middle(-2))).toBeNull();
    expect(phantomWarnings(middle(11), T0, policy)).toEqual(['LIVE_HIGH_PROFIT_SUSPICIOUS']);
  });

  it('takes its defaults, 10 % and 2 thresholds, from the PHANTOM_MAX_PROFIT_PERCENT and VERY_STALE_FACTOR settings', () => {
    expect(DEFAULT_PHANTOM_POLICY).toEqual({ maxProfitPercent: 10, veryStaleFactor: 2 });
  });
});

describe('the age limit (VERY_STALE_ODDS)', () => {
  it("flags an opportunity once its first-to-go-stale price is older than 5 times its book's threshold", () => {
    // Threshold 60 s: flagged past 300 s of age, not at it.
    expect(phantomWarnings(arb(2), T0 + 300_000, policy)).toEqual([]);
    expect(phantomWarnings(arb(2), T0 + 300_001, policy)).toEqual(['VERY_STALE_ODDS']);
  });

  it("scales with the book's own threshold: a 10 s live cadence is very stale past 50 s", () => {
    const live = arb(2, { freshUntil: T0 + 10_000, staleAfterSeconds: 10 });
    expect(phantomWarnings(live, T0 + 49_999, policy)).toEqual([]);
    expect(phantomWarnings(live, T0 + 50_001, policy)).toEqual(['VERY_STALE_ODDS']);
  });

  it('reads a record written before per-book thresholds with the fixed ones (60 s pre-match)', () => {
    const old = arb(2, { freshUntil: null, staleAfterSeconds: null });
    expect(phantomWarnings(old, T0 + 299_000, policy)).toEqual([]);
    expect(phantomWarnings(old, T0 + 301_000, policy)).toEqual(['VERY_STALE_ODDS']);
  });

  it('gives both flags, profit first, when both hold', () => {
    expect(phantomWarnings(arb(20), T0 + 600_000, policy)).toEqual(['LIVE_HIGH_PROFIT_SUSPICIOUS', 'VERY_STALE_ODDS']);
  });
});
