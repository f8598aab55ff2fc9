export * from './types.js';
export { SPORTS } from './sports.js';
export { LEAGUES } from './leagues.js';
export { SPORTSBOOKS } from './sportsbooks.js';
export { MARKETS } from './markets.js';
export { TEAMS } from './teams/index.js';
export { foldName, playerId } from './names.js';
export { KEY_NUMBERS } from './key-numbers.js';
export type { KeyNumberSet, LeagueKeyNumbers } from './key-numbers.js';
