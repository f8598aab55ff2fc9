import { teamsOf } from './define.js';
import type { TeamSeed } from './define.js';

const nation = teamsOf('soccer', 'fifa_world_cup');

/**
 * The 48 national teams of the 2026 FIFA World Cup. Names exactly as in The Odds API recording
 * (`theoddsapi_v4_fifa_wc2026_snapshots`); abbreviations are FIFA codes. Ids are bare country
 * slugs (`brazil`): national teams of other sports carry their sport's prefix.
 */
export const FIFA_WORLD_CUP: readonly TeamSeed[] = [
  nation('Algeria', 'ALG', []),
  nation('Argentina', 'ARG', []),
  nation('Australia', 'AUS', ['Socceroos']),
  nation('Austria', 'AUT', []),
  nation('Belgium', 'BEL', []),
  nation('Bosnia & Herzegovina', 'BIH', ['Bosnia-Herzegovina', 'Bosnia', 'Bosnia Herzegovina']),
  nation('Brazil', 'BRA', ['Brasil']),
  nation('Canada', 'CAN', []),
  nation('Cape Verde', 'CPV', ['Cabo Verde', 'Cape Verde Islands']),
  nation('Colombia', 'COL', []),
  nation('Croatia', 'CRO', []),
  nation('Curaçao', 'CUW', []),
  nation('Czech Republic', 'CZE', ['Czechia']),
  nation('DR Congo', 'COD', ['Congo DR', 'Democratic Republic of the Congo', 'DR Congo (Zaire)']),
  nation('Ecuador', 'ECU', []),
  nation('Egypt', 'EGY', []),
  nation('England', 'ENG', []),
  nation('France', 'FRA', []),
  nation('Germany', 'GER', []),
  nation('Ghana', 'GHA', []),
  nation('Haiti', 'HAI', []),
  nation('Iran', 'IRN', ['IR Iran']),
  nation('Iraq', 'IRQ', []),
  nation('Ivory Coast', 'CIV', ["Côte d'Ivoire", 'Cote dIvoire']),
  nation('Japan', 'JPN', []),
  nation('Jordan', 'JOR', []),
  nation('Mexico', 'MEX', []),
  nation('Morocco', 'MAR', []),
  nation('Netherlands', 'NED', ['Holland']),
  nation('New Zealand', 'NZL', []),
  nation('Norway', 'NOR', []),
  nation('Panama', 'PAN', []),
  nation('Paraguay', 'PAR', []),
  nation('Portugal', 'POR', []),
  nation('Qatar', 'QAT', []),
  nation('Saudi Arabia', 'KSA', []),
  nation('Scotland', 'SCO', []),
  nation('Senegal', 'SEN', []),
  nation('South Africa', 'RSA', []),
  nation('South Korea', 'KOR', ['Korea Republic', 'Republic of Korea']),
  nation('Spain', 'ESP', []),
  nation('Sweden', 'SWE', []),
  nation('Switzerland', 'SUI', []),
  nation('Tunisia', 'TUN', []),
  nation('Turkey', 'TUR', ['Türkiye']),
  nation('USA', 'USA', ['United States', 'United States of America', 'USMNT', 'US']),
  nation('Uruguay', 'URU', []),
  nation('Uzbekistan', 'UZB', []),
];
