import { teamsOf } from './define.js';
import type { TeamSeed } from './define.js';

const team = teamsOf('basketball', 'wnba');

/** WNBA: the 13 teams of 2025 plus the two 2026 expansion teams (Toronto, Portland). */
export const WNBA: readonly TeamSeed[] = [
  team('Atlanta Dream', 'ATL', ['Atlanta', 'Dream']),
  team('Chicago Sky', 'CHI', ['Chicago', 'Sky']),
  team('Connecticut Sun', 'CON', ['Connecticut', 'Sun', 'CONN']),
  team('Dallas Wings', 'DAL', ['Dallas', 'Wings']),
  team('Golden State Valkyries', 'GSV', ['Golden State', 'GS Valkyries', 'Valkyries', 'GS']),
  team('Indiana Fever', 'IND', ['Indiana', 'Fever']),
  team('Las Vegas Aces', 'LVA', ['Las Vegas', 'Vegas Aces', 'Aces', 'LV']),
  team('Los Angeles Sparks', 'LAS', ['LA Sparks', 'L.A. Sparks', 'Sparks', 'LA']),
  team('Minnesota Lynx', 'MIN', ['Minnesota', 'Lynx']),
  team('New York Liberty', 'NYL', ['New York', 'NY Liberty', 'Liberty', 'NY']),
  team('Phoenix Mercury', 'PHX', ['Phoenix', 'Mercury', 'PHO']),
  team('Seattle Storm', 'SEA', ['Seattle', 'Storm']),
  team('Washington Mystics', 'WAS', ['Washington', 'Mystics', 'WSH']),
  team('Toronto Tempo', 'TOR', ['Toronto', 'Tempo']),
  team('Portland Fire', 'POR', ['Portland', 'Fire']),
];
