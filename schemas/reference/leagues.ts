import type { MarketId } from '../markets.js';
import type { LeagueDef } from './types.js';

const US_FULL: readonly MarketId[] = [
  'moneyline',
  'point_spread',
  'total_points',
  'team_total',
  '1st_half',
  '1st_quarter',
  'player_prop',
];
const SOCCER: readonly MarketId[] = ['moneyline', 'point_spread', 'total_points', '1st_half'];
const SIDES_AND_TOTALS: readonly MarketId[] = ['moneyline', 'point_spread', 'total_points'];
const HEAD_TO_HEAD: readonly MarketId[] = ['moneyline'];
const H2H_TOTALS: readonly MarketId[] = ['moneyline', 'total_points'];
const ALL_YEAR = { from: 1, to: 12 } as const;

/**
 * Leagues by sport. numericalId is frozen: only ever append. Seasons are by month so that, on
 * any date, some sports are in season and others show zero events, as on a real board.
 */
export const LEAGUES: readonly LeagueDef[] = [
  { id: 'nba', numericalId: 1, name: 'NBA', country: 'US', sport: 'basketball', season: { from: 10, to: 6 }, markets: US_FULL, threeWay: false, scoring: { total: 228, spreadStep: 0.5, totalStep: 0.5 }, propStats: ['points', 'rebounds', 'assists', 'threes'] },
  { id: 'ncaab', numericalId: 2, name: 'NCAA Basketball', country: 'US', sport: 'basketball', season: { from: 11, to: 4 }, markets: ['moneyline', 'point_spread', 'total_points', 'team_total', '1st_half'], threeWay: false, scoring: { total: 145, spreadStep: 0.5, totalStep: 0.5 }, propStats: [] },
  { id: 'wnba', numericalId: 3, name: 'WNBA', country: 'US', sport: 'basketball', season: { from: 5, to: 10 }, markets: US_FULL, threeWay: false, scoring: { total: 163, spreadStep: 0.5, totalStep: 0.5 }, propStats: ['points', 'rebounds', 'assists'] },
  { id: 'nfl', numericalId: 4, name: 'NFL', country: 'US', sport: 'football', season: { from: 9, to: 2 }, markets: US_FULL, threeWay: false, scoring: { total: 44.5, spreadStep: 0.5, totalStep: 0.5 }, propStats: ['passing_yards', 'rushing_yards', 'receiving_yards', 'receptions'] },
  { id: 'ncaaf', numericalId: 5, name: 'NCAA Football', country: 'US', sport: 'football', season: { from: 8, to: 1 }, markets: ['moneyline', 'point_spread', 'total_points', 'team_total', '1st_half', '1st_quarter'], threeWay: false, scoring: { total: 52.5, spreadStep: 0.5, totalStep: 0.5 }, propStats: [] },
  { id: 'nhl', numericalId: 6, name: 'NHL', country: 'US', sport: 'hockey', season: { from: 10, to: 6 }, markets: ['moneyline', 'point_spread', 'total_points', 'team_total', 'player_prop'], threeWay: false, scoring: { total: 6, spreadStep: 1.5, totalStep: 0.5 }, propStats: ['shots_on_goal', 'points'] },
  { id: 'mlb', numericalId: 7, name: 'MLB', country: 'US', sport: 'baseball', season: { from: 3, to: 10 }, markets: ['moneyline', 'point_spread', 'total_points', 'team_total', 'player_prop'], threeWay: false, scoring: { total: 8.5, spreadStep: 1.5, totalStep: 0.5 }, propStats: ['strikeouts', 'hits', 'total_bases'] },
  { id: 'epl', numericalId: 8, name: 'English Premier League', country: 'GB', sport: 'soccer', season: { from: 8, to: 5 }, markets: SOCCER, threeWay: true, scoring: { total: 2.5, spreadStep: 0.25, totalStep: 0.25 }, propStats: [] },
  { id: 'la_liga', numericalId: 9, name: 'La Liga', country: 'ES', sport: 'soccer', season: { from: 8, to: 5 }, markets: SOCCER, threeWay: true, scoring: { total: 2.5, spreadStep: 0.25, totalStep: 0.25 }, propStats: [] },
  { id: 'serie_a', numericalId: 10, name: 'Serie A', country: 'IT', sport: 'soccer', season: { from: 8, to: 5 }, markets: SOCCER, threeWay: true, scoring: { total: 2.5, spreadStep: 0.25, totalStep: 0.25 }, propStats: [] },
  { id: 'bundesliga', numericalId: 11, name: 'Bundesliga', country: 'DE', sport: 'soccer', season: { from: 8, to: 5 }, markets: SOCCER, threeWay: true, scoring: { total: 3, spreadStep: 0.25, totalStep: 0.25 }, propStats: [] },
  { id: 'mls', numericalId: 12, name: 'Major League Soccer', country: 'US', sport: 'soccer', season: { from: 2, to: 12 }, markets: SOCCER, threeWay: true, scoring: { total: 2.5, spreadStep: 0.25, totalStep: 0.25 }, propStats: [] },
  { id: 'fifa_world_cup', numericalId: 13, name: 'FIFA World Cup', country: null, sport: 'soccer', season: { from: 6, to: 7 }, markets: SOCCER, threeWay: true, scoring: { total: 2.5, spreadStep: 0.25, totalStep: 0.25 }, propStats: [] },
  { id: 'atp', numericalId: 14, name: 'ATP Tour', country: null, sport: 'tennis', season: { from: 1, to: 11 }, markets: SIDES_AND_TOTALS, threeWay: false, scoring: { total: 22.5, spreadStep: 0.5, totalStep: 0.5 }, propStats: [] },
  { id: 'wta', numericalId: 15, name: 'WTA Tour', country: null, sport: 'tennis', season: { from: 1, to: 11 }, markets: SIDES_AND_TOTALS, threeWay: false, scoring: { total: 21.5, spreadStep: 0.5, totalStep: 0.5 }, propStats: [] },
  { id: 'ufc', numericalId: 16, name: 'UFC', country: null, sport: 'mma', season: ALL_YEAR, markets: H2H_TOTALS, threeWay: false, scoring: { total: 2.5, spreadStep: 0.5, totalStep: 1 }, propStats: [] },
  { id: 'pga', numericalId: 17, name: 'PGA Tour', country: null, sport: 'golf', season: { from: 1, to: 11 }, markets: HEAD_TO_HEAD, threeWay: false, scoring: { total: 0, spreadStep: 0.5, totalStep: 0.5 }, propStats: [] },
  { id: 'boxing', numericalId: 18, name: 'Professional Boxing', country: null, sport: 'boxing', season: ALL_YEAR, markets: H2H_TOTALS, threeWay: false, scoring: { total: 9.5, spreadStep: 0.5, totalStep: 1 }, propStats: [] },
  { id: 'test_cricket', numericalId: 19, name: 'International Cricket', country: null, sport: 'cricket', season: ALL_YEAR, markets: HEAD_TO_HEAD, threeWay: false, scoring: { total: 0, spreadStep: 0.5, totalStep: 0.5 }, propStats: [] },
  { id: 'premiership_rugby', numericalId: 20, name: 'Premiership Rugby', country: 'GB', sport: 'rugby', season: { from: 9, to: 6 }, markets: SIDES_AND_TOTALS, threeWay: false, scoring: { total: 48.5, spreadStep: 0.5, totalStep: 0.5 }, propStats: [] },
  { id: 'nrl', numericalId: 21, name: 'NRL', country: 'AU', sport: 'rugby_league', season: { from: 3, to: 10 }, markets: SIDES_AND_TOTALS, threeWay: false, scoring: { total: 42.5, spreadStep: 0.5, totalStep: 0.5 }, propStats: [] },
  { id: 'pll', numericalId: 22, name: 'Premier Lacrosse League', country: 'US', sport: 'lacrosse', season: { from: 6, to: 9 }, markets: SIDES_AND_TOTALS, threeWay: false, scoring: { total: 22.5, spreadStep: 0.5, totalStep: 0.5 }, propStats: [] },
  { id: 'f1', numericalId: 23, name: 'Formula 1', country: null, sport: 'motorsports', season: { from: 3, to: 12 }, markets: HEAD_TO_HEAD, threeWay: false, scoring: { total: 0, spreadStep: 0.5, totalStep: 0.5 }, propStats: [] },
  { id: 'grand_slam_of_curling', numericalId: 24, name: 'Grand Slam of Curling', country: null, sport: 'curling', season: { from: 9, to: 4 }, markets: HEAD_TO_HEAD, threeWay: false, scoring: { total: 0, spreadStep: 0.5, totalStep: 0.5 }, propStats: [] },
  { id: 'pdc', numericalId: 25, name: 'PDC Darts', country: null, sport: 'darts', season: ALL_YEAR, markets: H2H_TOTALS, threeWay: false, scoring: { total: 10.5, spreadStep: 0.5, totalStep: 1 }, propStats: [] },
  { id: 'world_snooker_tour', numericalId: 26, name: 'World Snooker Tour', country: null, sport: 'snooker', season: { from: 7, to: 5 }, markets: H2H_TOTALS, threeWay: false, scoring: { total: 8.5, spreadStep: 0.5, totalStep: 1 }, propStats: [] },
  { id: 'wtt', numericalId: 27, name: 'World Table Tennis', country: null, sport: 'table_tennis', season: ALL_YEAR, markets: H2H_TOTALS, threeWay: false, scoring: { total: 3.5, spreadStep: 0.5, totalStep: 1 }, propStats: [] },
  { id: 'cs2', numericalId: 28, name: 'Counter-Strike 2', country: null, sport: 'esports', season: ALL_YEAR, markets: SIDES_AND_TOTALS, threeWay: false, scoring: { total: 2.5, spreadStep: 1.5, totalStep: 1 }, propStats: [] },
];
