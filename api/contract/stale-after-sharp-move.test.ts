/**
 * The STALE_AFTER_SHARP_MOVE warning as rows show it: judged at the request by the replica's
 * judge (the live board's SharpMoveWatch), added to `warnings` with the move in
 * `stale_after_sharp_move`; a row the judge does not flag is unchanged (no field at all).
 */
import fastJson from 'fast-json-stringify';
import { describe, expect, it } from 'vitest';
import type { LowHoldOpportunity } from '../../schemas/index.js';
import { DEFAULT_PHANTOM_POLICY } from '../../pipeline/opportunities/index.js';
import type { StaleDerivativeFlag } from '../../pipeline/opportunities/index.js';
import { Catalog } from '../views/catalog.js';
import { lowHoldRowSchema, presentLowHold } from './opportunities.js';

const catalog = new Catalog();
const T0 = Date.UTC(2026, 10, 21, 17);
const leg = (book: string, selection: 'over' | 'under', priceAmerican: number): LowHoldOpportunity['legs'][number] => ({
  book,
  selection,
  line: 110.5,
  priceAmerican,
  priceDecimal: 1 + 100 / -priceAmerican,
  ts: T0,
  rowId: `r-${book}`,
  bookEventId: 'x',
  selectionId: null,
  stakeShare: 0.5,
});
const lowHold: LowHoldOpportunity = {
  id: 'l1',
  kind: 'low_hold',
  eventId: 'e1',
  situation: 'e1|team_total|home|total|110.5',
  market: 'team_total',
  family: 'total',
  participant: 'home',
  statCategory: null,
  event: { sport: 'basketball', league: 'nba', homeTeamId: 'nba-bos', awayTeamId: 'nba-mia', startTime: T0 + 3_600_000, isLive: false },
  legs: [leg('draftkings', 'over', -102), leg('fanduel', 'under', -104)],
  oldestOddsTs: T0,
  oldestOddsAgeSeconds: 0,
  freshUntil: T0 + 600_000,
  staleAfterSeconds: 600,
  possiblyStale: false,
  warnings: [],
  detectedAt: T0,
  lastSeenAt: T0,
  expiredAt: null,
  expireReason: null,
  value: 1.46,
  peakValue: 1.46,
  line: 110.5,
  holdPercent: 1.46,
  impliedSum: 1.0148,
};
const flag: StaleDerivativeFlag = {
  rowId: 'r-draftkings',
  warning: 'STALE_AFTER_SHARP_MOVE',
  move: { eventId: 'e1', book: 'pinnacle', market: 'total_points', fromLine: 220.5, toLine: 222.5, at: T0 + 60_000 },
  expected: 'shorten',
  book: 'draftkings',
  selection: 'over',
  line: 110.5,
};
const serialize = (fastJson as unknown as (s: object) => (x: unknown) => string)(lowHoldRowSchema);

describe('stale_after_sharp_move on opportunity rows', () => {
  it('shows the warning and the move that triggered it when the judge flags a price', () => {
    const policy = { ...DEFAULT_PHANTOM_POLICY, staleDerivatives: { staleDerivativeOf: () => flag } };
    const json = JSON.parse(serialize(presentLowHold(catalog, lowHold, T0 + 120_000, policy))) as Record<string, unknown>;
    expect(json['warnings']).toEqual(['STALE_AFTER_SHARP_MOVE']);
    expect(json['stale_after_sharp_move']).toEqual({
      sportsbook: 'draftkings',
      selection_type: 'over',
      line: 110.5,
      expected: 'shorten',
      sharp_book: 'pinnacle',
      sharp_market: 'total_points',
      from_line: 220.5,
      to_line: 222.5,
      moved_at: '2026-11-21T17:01:00.000Z',
    });
  });

  it('leaves a row the judge does not flag, or a replica without a judge, as it was', () => {
    for (const policy of [DEFAULT_PHANTOM_POLICY, { ...DEFAULT_PHANTOM_POLICY, staleDerivatives: { staleDerivativeOf: () => null } }]) {
      const json = JSON.parse(serialize(presentLowHold(catalog, lowHold, T0 + 120_000, policy))) as Record<string, unknown>;
      expect(json['warnings']).toEqual([]);
      expect(json).not.toHaveProperty('stale_after_sharp_move');
    }
  });
});
