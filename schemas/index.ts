export * from './markets.js';
export * from './ticks.js';
export * from './events.js';
export * from './odds.js';
export * from './opportunities.js';
export * from './topics.js';
export * from './reference/index.js';
export * from './tiers.js';
