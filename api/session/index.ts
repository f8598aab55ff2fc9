export { SessionStore } from './sessions.js';
export type { Session } from './sessions.js';
export type { SessionKey } from './plugin.js';
export { SESSION_COOKIE, SESSION_COOKIE_PATH, SessionAuth, assertSameOrigin, sessionRoutes, sessionSchema } from './plugin.js';
export { RedisSessions } from './redis-sessions.js';
export type { RedisSessionsOptions } from './redis-sessions.js';
