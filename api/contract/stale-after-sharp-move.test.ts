/**
 * The STALE_AFTER_SHARP_MOVE warning as rows show it: judged at the request by the replica's
 * judge (the live board's SharpMoveWatch), added to `warnings` with the move in
 * `stale_after_sharp_move`; a row the judge does not flag is unchanged (no field at all).
 */
import fastJson from 'fast-json-stringify';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PHANTOM_POLICY } from '../../pipeline/opportunities/index.js';
import type { StaleDerivativeFlag } from '../../pipeline/opportunities/index.js';
import { Catalog } from '../views/catalog.js';
import { T0, lowHold } from './fixtures/low-hold.js';
import { lowHoldRowSchema, presentLowHold } from './opportunities.js';

const catalog = new Catalog();
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
