/**
 * A value outside a known set is refused naming what was allowed: `market=spreads` (The Odds
 * API's name) used to be "unknown market 'spreads'" and nothing more.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBareApp } from './support/raw-http.js';
import type { BareApp } from './support/raw-http.js';

let s: BareApp;

beforeAll(async () => {
  s = await startBareApp();
});
afterAll(async () => {
  await s.close();
});

async function refusal(path: string): Promise<[number, string]> {
  const r = await s.app.inject({ method: 'GET', url: `/api/v1${path}`, headers: { 'x-api-key': s.key } });
  return [r.statusCode, (r.json() as { error: { message: string } }).error.message];
}

const MARKETS =
  'moneyline, point_spread, total_points, team_total, player_prop, game_prop, future, 1st_half, 1st_quarter, main, spread, total, props, player_<stat>';

describe('refusals of unknown values', () => {
  it('answers market=spreads with the market it likely meant and every market', async () => {
    expect(await refusal('/odds?market=spreads')).toEqual([
      400,
      `Invalid query parameter 'market': unknown market 'spreads'; did you mean 'spread'? Allowed: ${MARKETS}`,
    ]);
    expect(await refusal('/opportunities/arbitrage?market=h2h')).toEqual([
      400,
      `Invalid query parameter 'market': unknown market 'h2h'; did you mean 'moneyline'? Allowed: ${MARKETS}`,
    ]);
  });

  it('answers an unknown sport, league or sportsbook with the near id and the endpoint that lists them', async () => {
    expect(await refusal('/odds?sport=basketbal')).toEqual([
      400,
      "Invalid query parameter 'sport': unknown sport 'basketbal'; did you mean 'basketball'? GET /api/v1/sports lists them",
    ]);
    expect(await refusal('/events?league=quidditch')).toEqual([
      400,
      "Invalid query parameter 'league': unknown league 'quidditch'; GET /api/v1/leagues lists them",
    ]);
    expect(await refusal('/odds/best?sportsbook=fandual')).toEqual([
      400,
      "Invalid query parameter 'sportsbook': unknown sportsbook 'fandual'; did you mean 'fanduel'? GET /api/v1/sportsbooks lists them",
    ]);
  });

  it('answers a value outside a schema enum with the enum, and the value it likely meant', async () => {
    expect(await refusal('/opportunities/ev?devig_method=powr')).toEqual([
      400,
      "Invalid query parameter 'devig_method': must be one of power, multiplicative, additive, shin, odds_ratio, logit, worst_case, efficient_shin, goto; did you mean 'power'?",
    ]);
  });
});
