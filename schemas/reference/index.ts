export * from './types.js';
export { SPORTS } from './sports.js';
export { LEAGUES } from './leagues.js';
export { SPORTSBOOKS } from './sportsbooks.js';
export { MARKETS } from './markets.js';
export { TEAMS } from './teams/index.js';
export { foldName, playerId } from './names.js';
export { DEFAULT_STATE, US_STATES, builtInTemplates, fillTemplate, withOperatorTemplates } from './deeplink-templates.js';
export type { DeepLinkTemplates } from './deeplink-templates.js';
