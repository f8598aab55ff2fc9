/**
 * The simulated odds feed: a deterministic market simulator (`MarketSimulator`) and the feed
 * that drives it on timers (`SimulatorFeed`). Other components import from here only.
 */
export { MarketSimulator } from './simulator.js';
export { SimulatorFeed, type SimulatorFeedOptions } from './feed.js';
export type { MarketSimulatorOptions, SimulatorCatalog } from './options.js';
export type { MatcherTrap } from './board.js';
export type { QuoteView, TrueEvent, TrueListing } from './truth.js';
export { syntheticTeams } from './synthetic-catalog.js';
