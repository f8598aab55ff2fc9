import type { MarketDef } from './types.js';

/** Market types of the contract. numericalId is frozen: only ever append. */
export const MARKETS: readonly MarketDef[] = [
  {
    id: 'moneyline',
    numericalId: 1,
    name: 'Moneyline',
    description: 'Which side wins (with a draw outcome in three-way soccer markets).',
    hasLine: false,
    examples: ['Los Angeles Lakers -150', 'Draw +240'],
  },
  {
    id: 'point_spread',
    numericalId: 2,
    name: 'Point Spread',
    description: 'A side wins after its handicap is applied to the final score.',
    hasLine: true,
    examples: ['Kansas City Chiefs -3.5 -110'],
  },
  {
    id: 'total_points',
    numericalId: 3,
    name: 'Total Points',
    description: 'Combined score over or under a threshold.',
    hasLine: true,
    examples: ['Over 47.5 -105'],
  },
  {
    id: 'team_total',
    numericalId: 4,
    name: 'Team Total',
    description: "One team's score over or under a threshold.",
    hasLine: true,
    examples: ['Boston Celtics Over 114.5 -110'],
  },
  {
    id: 'player_prop',
    numericalId: 5,
    name: 'Player Prop',
    description: "A player's stat over or under a threshold.",
    hasLine: true,
    examples: ['Points Over 27.5 -115'],
  },
  { id: 'game_prop', numericalId: 6, name: 'Game Prop', description: 'A yes/no proposition on the game.', hasLine: false, examples: [] },
  { id: 'future', numericalId: 7, name: 'Future', description: 'Outright markets settled at season end.', hasLine: false, examples: [] },
  {
    id: '1st_half',
    numericalId: 8,
    name: '1st Half',
    description: 'First-half spread (home/away) and first-half total (over/under).',
    hasLine: true,
    examples: ['Home -1.5 +100', 'Over 23.5 -110'],
  },
  {
    id: '1st_quarter',
    numericalId: 9,
    name: '1st Quarter',
    description: 'First-quarter spread and total.',
    hasLine: true,
    examples: ['Away +0.5 -120', 'Under 11.5 -105'],
  },
];
