import { teamsOf } from './define.js';
import type { TeamSeed } from './define.js';

const team = teamsOf('cricket', 'test_cricket', 'cricket-');

/** International cricket: the 12 Test nations and the strongest associates. Ids `cricket-*`. */
export const CRICKET: readonly TeamSeed[] = [
  team('India', 'IND', []),
  team('Australia', 'AUS', []),
  team('England', 'ENG', []),
  team('New Zealand', 'NZ', ['Black Caps', 'BlackCaps']),
  team('South Africa', 'SA', ['Proteas']),
  team('Pakistan', 'PAK', []),
  team('Sri Lanka', 'SL', []),
  team('Bangladesh', 'BAN', []),
  team('West Indies', 'WI', ['Windies']),
  team('Afghanistan', 'AFG', []),
  team('Ireland', 'IRE', []),
  team('Zimbabwe', 'ZIM', []),
  team('Netherlands', 'NED', ['Holland']),
  team('Scotland', 'SCO', []),
  team('Nepal', 'NEP', []),
  team('United States', 'USA', ['USA']),
];
