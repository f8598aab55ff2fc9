import { describe, expect, it } from 'vitest';
import { LEAGUES, TEAMS } from '../../schemas/index.js';
import type { MarketId } from '../../schemas/index.js';
import { rawTick } from '../../test/support/raw-tick.js';
import { Normalizer } from './normalizer.js';

/**
 * Bug: a tick whose market id is not one of the contract's (`total` instead of `total_points`)
 * went through the normalizer, became rows and an arbitrage, and the REST list then answered 500
 * because its row schema refuses the market. Such a tick is now unmatched (`unknown_market`),
 * counted like an unknown league, and changes nothing.
 */
const START = Date.UTC(2026, 10, 29, 1, 0);

describe('a tick with a market id outside the contract', () => {
  it('is unmatched as unknown_market and makes no tick', () => {
    const n = new Normalizer({ teams: TEAMS, leagues: LEAGUES });
    const bad = n.handle(rawTick(START, { market: 'total' as MarketId, outcome: 'Over', line: 221.5 }), 0);
    expect([bad.tick, bad.unmatched]).toEqual([null, 'unknown_market']);
    expect(n.counts.unmatched.get('unknown_market')).toBe(1);
    const good = n.handle(rawTick(START, { market: 'total_points', outcome: 'Over', line: 221.5 }), 0);
    expect([good.unmatched, good.tick?.market]).toEqual([null, 'total_points']);
  });
});
