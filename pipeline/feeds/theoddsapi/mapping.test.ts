import { describe, expect, it } from 'vitest';
import { SPORTSBOOKS } from '../../../schemas/index.js';
import { decimalToAmericanUnsnapped } from '../../odds-math/index.js';
import { KNOWN_BOOKMAKER_KEYS, mapBookmakerKey, mapMarketKey, mapSportKey, toAmerican } from './mapping.js';

describe('sport keys', () => {
  it('maps league keys to our league and its sport', () => {
    expect(mapSportKey('americanfootball_nfl')).toEqual({ league: 'nfl', sport: 'football' });
    expect(mapSportKey('soccer_fifa_world_cup')).toEqual({ league: 'fifa_world_cup', sport: 'soccer' });
    expect(mapSportKey('soccer_spain_la_liga')).toEqual({ league: 'la_liga', sport: 'soccer' });
    expect(mapSportKey('icehockey_nhl')).toEqual({ league: 'nhl', sport: 'hockey' });
    expect(mapSportKey('mma_mixed_martial_arts')).toEqual({ league: 'ufc', sport: 'mma' });
  });

  it('maps tournament-scoped tennis and golf keys by prefix', () => {
    expect(mapSportKey('tennis_atp_wimbledon')).toEqual({ league: 'atp', sport: 'tennis' });
    expect(mapSportKey('tennis_wta_us_open')).toEqual({ league: 'wta', sport: 'tennis' });
    expect(mapSportKey('golf_masters_tournament_winner')).toEqual({ league: 'pga', sport: 'golf' });
  });

  it('returns null for a sport we do not carry', () => {
    expect(mapSportKey('aussierules_afl')).toBeNull();
    expect(mapSportKey('tennis_itf_men')).toBeNull();
  });
});

describe('bookmaker keys', () => {
  it('maps williamhill_us to caesars and regional copies to one book', () => {
    expect(mapBookmakerKey('williamhill_us')?.book).toBe('caesars');
    expect(mapBookmakerKey('williamhill')?.book).toBe('williamhill');
    expect(mapBookmakerKey('betfair_ex_uk')?.book).toBe('betfair_ex_eu');
    expect(mapBookmakerKey('unibet_uk')?.book).toBe('unibet');
  });

  it('prefers betfair_ex_eu over its regional copies', () => {
    const eu = mapBookmakerKey('betfair_ex_eu');
    const uk = mapBookmakerKey('betfair_ex_uk');
    expect(eu !== null && uk !== null && eu.rank < uk.rank).toBe(true);
  });

  it('only maps to sportsbooks of the catalog', () => {
    const catalog = new Set(SPORTSBOOKS.map((b) => b.id));
    const books = KNOWN_BOOKMAKER_KEYS.map((key) => mapBookmakerKey(key)?.book);
    expect(books.every((book) => book !== undefined && catalog.has(book))).toBe(true);
    expect(KNOWN_BOOKMAKER_KEYS).toHaveLength(23);
  });

  it('returns null for an unknown bookmaker', () => {
    expect(mapBookmakerKey('pointsbetau')).toBeNull();
  });
});

describe('market keys', () => {
  it('maps featured, period and team markets', () => {
    expect(mapMarketKey('h2h')).toEqual({ market: 'moneyline', statCategory: null, shape: 'side' });
    expect(mapMarketKey('spreads')).toEqual({ market: 'point_spread', statCategory: null, shape: 'spread' });
    expect(mapMarketKey('totals')).toEqual({ market: 'total_points', statCategory: null, shape: 'total' });
    expect(mapMarketKey('team_totals')).toEqual({ market: 'team_total', statCategory: null, shape: 'team_total' });
    expect(mapMarketKey('spreads_h1')).toEqual({ market: '1st_half', statCategory: null, shape: 'spread' });
    expect(mapMarketKey('totals_q1')).toEqual({ market: '1st_quarter', statCategory: null, shape: 'total' });
  });

  it('maps player props to player_prop with a stat category', () => {
    expect(mapMarketKey('player_pass_yds')).toEqual({ market: 'player_prop', statCategory: 'passing_yards', shape: 'prop' });
    expect(mapMarketKey('pitcher_strikeouts')?.statCategory).toBe('strikeouts');
    expect(mapMarketKey('player_shots_on_goal')?.statCategory).toBe('shots_on_goal');
  });

  it('returns null for exchange lay, outrights and alternates', () => {
    expect(mapMarketKey('h2h_lay')).toBeNull();
    expect(mapMarketKey('outrights')).toBeNull();
    expect(mapMarketKey('alternate_spreads')).toBeNull();
    expect(mapMarketKey('player_anytime_td')).toBeNull();
  });
});

describe('prices', () => {
  it('keeps American prices as they are', () => {
    expect(toAmerican(-110)).toBe(-110);
    expect(toAmerican(100)).toBe(100);
    expect(toAmerican(1900)).toBe(1900);
  });

  it('converts decimal prices to American', () => {
    expect(toAmerican(1.91)).toBe(-110);
    expect(toAmerican(2.5)).toBe(150);
    expect(toAmerican(2)).toBe(100);
    expect(toAmerican(21)).toBe(2000);
    expect(decimalToAmericanUnsnapped(1.5)).toBe(-200);
  });

  it('rejects prices that are neither', () => {
    expect(toAmerican(1)).toBeNull();
    expect(toAmerican(-50)).toBeNull();
    expect(toAmerican(0)).toBeNull();
    expect(toAmerican(1.91, 'american')).toBeNull();
  });

  it('converts decimal wire prices as it always has at the edges: no snapping, -100 just under 2.0', () => {
    expect(toAmerican(2.005)).toBe(100);
    expect(toAmerican(1.999)).toBe(-100);
    expect(toAmerican(Number.NaN)).toBeNull();
  });

  it('reads every price as decimal when told so', () => {
    expect(toAmerican(101, 'decimal')).toBe(10000);
  });
});
