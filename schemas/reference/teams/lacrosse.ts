import { teamsOf } from './define.js';
import type { TeamSeed } from './define.js';

const team = teamsOf('lacrosse', 'pll');

/** Premier Lacrosse League: all 8 clubs, with the city names they took in 2024. */
export const PLL: readonly TeamSeed[] = [
  team('Boston Cannons', 'BOS', ['Cannons', 'Cannons LC', 'Boston']),
  team('California Redwoods', 'CAL', ['Redwoods', 'Redwoods LC', 'California']),
  team('Carolina Chaos', 'CAR', ['Chaos', 'Chaos LC', 'Carolina']),
  team('Denver Outlaws', 'DEN', ['Outlaws', 'Denver']),
  team('Maryland Whipsnakes', 'MD', ['Whipsnakes', 'Whipsnakes LC', 'Maryland']),
  team('New York Atlas', 'NY', ['Atlas', 'Atlas LC', 'New York']),
  team('Philadelphia Waterdogs', 'PHI', ['Waterdogs', 'Waterdogs LC', 'Philadelphia']),
  team('Utah Archers', 'UTA', ['Archers', 'Archers LC', 'Utah']),
];
