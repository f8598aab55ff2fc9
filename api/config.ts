// The configuration table and its loader live in runtime/ (every role reads them).
export { ConfigError, loadConfig } from '../runtime/config.js';
export type { Config, FeedKind, Role } from '../runtime/config.js';
