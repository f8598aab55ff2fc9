import { teamsOf } from './define.js';
import type { TeamSeed } from './define.js';

const team = teamsOf('esports', 'cs2', 'cs2-');

/** Counter-Strike 2: the top of the HLTV ranking. Ids `cs2-*` (organisations play several games). */
export const CS2: readonly TeamSeed[] = [
  team('Team Vitality', null, ['Vitality']),
  team('Natus Vincere', 'NAVI', ["Na'Vi", 'NaVi']),
  team('FaZe Clan', null, ['FaZe']),
  team('Team Spirit', null, ['Spirit']),
  team('MOUZ', null, ['mousesports']),
  team('G2 Esports', 'G2', []),
  team('The MongolZ', null, ['MongolZ']),
  team('Team Falcons', null, ['Falcons', 'Falcons Esports']),
  team('Aurora Gaming', null, ['Aurora']),
  team('FURIA', null, ['FURIA Esports']),
  team('Astralis', null, []),
  team('Heroic', null, []),
  team('3DMAX', null, []),
  team('Virtus.pro', 'VP', ['Virtus Pro']),
  team('paiN Gaming', null, ['paiN']),
  team('Team Liquid', null, ['Liquid']),
  team('Complexity Gaming', null, ['Complexity', 'coL']),
  team('GamerLegion', null, []),
  team('Legacy', null, []),
  team('BetBoom Team', null, ['BetBoom']),
];
