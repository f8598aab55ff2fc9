export { deadLetterSource, gameStateSource } from './feed.js';
export type { Feed } from './feed.js';
export type { CertLoginOptions } from './betfair/index.js';
