/**
 * What went wrong: `GET /opportunities/ev?market=__proto__` (and hasOwnProperty, valueOf, ...)
 * answered 500 on all four opportunity routes, because the market aliases were an object
 * literal looked up with the client's string: `__proto__` found Object.prototype and was called
 * as a filter. `market=constructor` or `toString` found a function and answered 200 with every
 * opportunity. Every lookup keyed by a query value now goes through a Map (or own keys only):
 * a prototype name is an unknown value like any other.
 */
import { describe, expect, it } from 'vitest';
import { conformanceForFile } from './support/fixture.js';
import type { Conformance } from './support/fixture.js';
import { PROTOTYPE_NAMES } from './support/prototype-names.js';

type Row = Record<string, unknown>;
let c: Conformance;
conformanceForFile((started) => {
  c = started;
});

describe('prototype names as query values', () => {
  const opportunityRoutes = ['/opportunities/ev', '/opportunities/arbitrage', '/opportunities/middles', '/opportunities/low-hold'];

  for (const route of opportunityRoutes) {
    it(`${route}: market=<prototype name> is 400 unknown market, never 500 nor every opportunity`, async () => {
      for (const name of PROTOTYPE_NAMES) {
        const r = await c.sys.get(`/api/v1${route}?market=${encodeURIComponent(name)}`, c.keys.enterprise);
        expect([name, r.status, (r.body['error'] as Row | undefined)?.['message']]).toEqual([
          name,
          400,
          `Invalid query parameter 'market': unknown market '${name}'; allowed: moneyline, point_spread, total_points, team_total, player_prop, game_prop, future, 1st_half, 1st_quarter, main, spread, total, props, player_<stat>`,
        ]);
      }
    });
  }

  it('a prototype name in a catalog filter (sport, league, sportsbook, market, add_sportsbook) is 400 naming the field', async () => {
    const cases: [string, string][] = [
      ['/odds', 'sport'],
      ['/odds', 'league'],
      ['/odds', 'sportsbook'],
      ['/odds', 'market'],
      ['/odds', 'add_sportsbook'],
      ['/events', 'sport'],
      ['/odds/best', 'league'],
    ];
    for (const [path, field] of cases) {
      for (const name of PROTOTYPE_NAMES) {
        const r = await c.sys.get(`/api/v1${path}?${field}=${encodeURIComponent(name)}`, c.keys.enterprise);
        expect([path, field, name, r.status, (r.body['error'] as Row | undefined)?.['message']]).toEqual([
          path,
          field,
          name,
          400,
          expect.stringContaining(`'${field}': unknown`),
        ]);
      }
    }
  });

  it('a prototype name as a path id is 404 (sports, sportsbooks, events)', async () => {
    for (const path of ['/sports/', '/sportsbooks/', '/events/', '/events/{}/markets', '/events/{}/odds']) {
      for (const name of PROTOTYPE_NAMES) {
        const url = path.includes('{}') ? path.replace('{}', encodeURIComponent(name)) : `${path}${encodeURIComponent(name)}`;
        const r = await c.sys.get(`/api/v1${url}`, c.keys.enterprise);
        expect([url, r.status, (r.body['error'] as Row | undefined)?.['code']]).toEqual([url, 404, 'not_found']);
      }
    }
  });

  it('a prototype name as a sort key is 400, and as a free-text or team search finds nothing', async () => {
    for (const name of PROTOTYPE_NAMES) {
      const sort = await c.sys.get(`/api/v1/opportunities/arbitrage?sort=${encodeURIComponent(name)}`, c.keys.enterprise);
      expect([name, sort.status]).toEqual([name, 400]);
      for (const field of ['q', 'team']) {
        const r = await c.sys.get(`/api/v1/events?${field}=${encodeURIComponent(name)}`, c.keys.enterprise);
        expect([name, field, r.status, r.body['data']]).toEqual([name, field, 200, []]);
      }
      const comparison = await c.sys.get(`/api/v1/odds/comparison?event=${encodeURIComponent(name)}`, c.keys.enterprise);
      expect([name, comparison.status]).toEqual([name, 404]);
    }
  });
});
