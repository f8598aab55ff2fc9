/**
 * What went wrong: The Odds API's sport, market and prop keys were looked up in object literals,
 * so a feed key named `constructor` or `toString` "mapped" to a function and `__proto__` to
 * Object.prototype, and the unknown-key counters keyed by the same strings could not count
 * `__proto__`. Recordings and upstream bodies are input like any other: such keys are unknown.
 */
import { describe, expect, it } from 'vitest';
import { PROTOTYPE_NAMES } from '../../../test/support/prototype-names.js';
import { bookmaker, event, market } from './fixtures/builders.js';
import { mapBookmakerKey, mapMarketKey, mapSportKey } from './mapping.js';
import { EMPTY_STATE, mapSnapshot } from './snapshot-diff.js';

const T0 = Date.parse('2025-11-09T12:00:00Z');
const LU = '2025-11-09T11:58:00Z';

describe('feed keys named after prototype members', () => {
  it('map to nothing as sport, bookmaker or market keys', () => {
    for (const name of PROTOTYPE_NAMES) {
      expect([name, mapSportKey(name), mapBookmakerKey(name), mapMarketKey(name)]).toEqual([name, null, null, null]);
    }
  });

  it('are counted as unknown, one count per key, like any other unknown key', () => {
    const body = PROTOTYPE_NAMES.map((name, i) =>
      event(`evt-${i}`, name, '2025-11-09T18:00:00Z', 'Baltimore Ravens', 'Minnesota Vikings', [
        bookmaker('draftkings', LU, [
          market('h2h', LU, [
            { name: 'Baltimore Ravens', price: -180 },
            { name: 'Minnesota Vikings', price: 150 },
          ]),
        ]),
      ]),
    );
    const { ticks, stats } = mapSnapshot(body, T0, EMPTY_STATE);
    expect(ticks).toEqual([]);
    expect(Object.keys(stats.unknownSports).sort()).toEqual([...PROTOTYPE_NAMES].sort());
    for (const name of PROTOTYPE_NAMES) expect([name, stats.unknownSports[name]]).toEqual([name, 1]);
  });

  it('count unknown bookmakers and markets of a known sport the same way', () => {
    const body = [
      event('evt-1', 'americanfootball_nfl', '2025-11-09T18:00:00Z', 'Baltimore Ravens', 'Minnesota Vikings', [
        bookmaker('constructor', LU, [
          market('h2h', LU, [
            { name: 'Baltimore Ravens', price: -180 },
            { name: 'Minnesota Vikings', price: 150 },
          ]),
        ]),
        bookmaker('draftkings', LU, [market('__proto__', LU, [{ name: 'Over', price: -110 }])]),
      ]),
    ];
    const { stats } = mapSnapshot(body, T0, EMPTY_STATE);
    expect(Object.entries(stats.unknownBookmakers)).toEqual([['constructor', 1]]);
    expect(Object.entries(stats.unknownMarkets)).toEqual([['__proto__', 1]]);
  });
});
