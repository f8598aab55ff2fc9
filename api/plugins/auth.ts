import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Feature, TierName } from '../../schemas/index.js';
import { ApiError } from '../errors.js';
import type { AuthenticatedKey, KeyStore, LeaseSession, UsageRecorder } from '../accounts/index.js';
import { TIERS } from '../../schemas/index.js';
import { queryAtCallerRate, requireFeatureOf } from '../queries/index.js';
import type { RateLimitStore } from './rate-limit.js';

declare module 'fastify' {
  interface FastifyRequest {
    apiKey: AuthenticatedKey | null;
    /** The browser session when the request was signed in by its cookie (what it opens ends on sign-out). */
    browserSession: LeaseSession | null;
    /** The request named its own `commission`; false when the account's rate (or none) applies, which a stream then follows. */
    ownCommission: boolean;
  }
}

export interface AuthOptions {
  keys: KeyStore;
  rateLimits: RateLimitStore;
  now: () => number;
  /** Counts each authenticated request per key and endpoint (buffered, flushed off the request path). */
  usage?: UsageRecorder;
  /** Browser sessions: the key behind a session cookie, when the request presents no key itself. */
  sessions?: { authenticate(request: FastifyRequest): { key: AuthenticatedKey; session: LeaseSession } | undefined };
}

/** The key from `X-API-Key`, `Authorization: Bearer`, or `?api_key=` (for SSE clients). */
export function presentedKey(request: FastifyRequest): string | undefined {
  const header = request.headers['x-api-key'];
  if (typeof header === 'string' && header.length > 0) return header;
  const auth = request.headers.authorization;
  if (auth) {
    const m = /^Bearer\s+(.+)$/i.exec(auth);
    if (m?.[1]) return m[1].trim();
  }
  const query = request.query as Record<string, unknown> | undefined;
  const fromQuery = query?.['api_key'];
  return typeof fromQuery === 'string' && fromQuery.length > 0 ? fromQuery : undefined;
}

/**
 * Authentication, rate limiting and the per-request headers, as one onRequest hook for every
 * route registered in the same encapsulation context (everything but /health).
 */
export const authPlugin = fp<AuthOptions>(async (app: FastifyInstance, options) => {
  app.decorateRequest('apiKey', null);
  app.decorateRequest('browserSession', null);
  app.decorateRequest('ownCommission', false);
  const usage = options.usage;
  if (usage) {
    app.addHook('onResponse', (request, reply, done) => {
      const key = request.apiKey;
      if (key) usage.record(key.accountId, key.keyId, endpointOf(request), reply.statusCode >= 400);
      done();
    });
  }
  // After validation: the account's own exchange commission rate is the default `commission`.
  // No I/O here (the key's account is in memory): the hook calls `done` rather than return a promise.
  app.addHook('preHandler', (request, _reply, done) => {
    const auth = request.apiKey;
    if (auth) {
      const account = options.keys.account(auth.accountId);
      const schema = request.routeOptions.schema;
      request.ownCommission = (request.query as { commission?: unknown } | undefined)?.commission !== undefined;
      request.query = queryAtCallerRate(request.query as object, schema?.querystring, account);
      if (typeof request.body === 'object' && request.body !== null) request.body = queryAtCallerRate(request.body, schema?.body, account);
    }
    done();
  });
  app.addHook('onRequest', async (request, reply) => {
    const key = presentedKey(request);
    const signedIn = key === undefined ? options.sessions?.authenticate(request) : undefined;
    const record = key === undefined ? signedIn?.key : options.keys.lookup(key);
    if (!record && key === undefined && request.routeOptions.config.keyless === true) {
      await keylessLimit(request, reply, options);
      return;
    }
    if (!record) {
      throw new ApiError(
        'unauthorized',
        key === undefined
          ? 'An API key is required: send it as X-API-Key, as Authorization: Bearer, or as the api_key query parameter (or sign in for a session cookie)'
          : 'The API key is not valid',
      );
    }
    request.apiKey = record;
    if (signedIn) request.browserSession = { id: signedIn.session.id, expiresAt: signedIn.session.expiresAt };
    const tier = TIERS[record.tier];
    const limit = record.requestsPerMinute ?? tier.requestsPerMinute;
    // One window per account, whichever of its keys sends: more keys (created or rotated) never
    // mean more requests. Each request is admitted against its own key's limit (an Enterprise
    // key's custom one, else the tier's), so the account's budget is the largest limit it holds
    // and a key with a lower one stops once the account's window reaches that lower figure.
    const rate = await options.rateLimits.hit(record.accountId, limit, options.now());
    const headers: Record<string, string> = {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(rate.remaining),
      'x-ratelimit-reset': String(rate.resetAt),
      'x-data-delay': String(tier.dataDelaySeconds),
    };
    void reply.headers(headers);
    if (!rate.allowed) {
      throw new ApiError(
        'rate_limited',
        `Rate limit of ${limit} requests per minute reached; retry in ${rate.retryAfter} s`,
        {
          ...headers,
          'retry-after': String(rate.retryAfter),
        },
        { retry_after: rate.retryAfter },
      );
    }
  });
});

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers without an API key too (limited per address); a key sent is checked as usual. */
    keyless?: boolean;
  }
}

/** Requests per minute per client address on routes open without a key (`config: { keyless: true }`). */
export const KEYLESS_REQUESTS_PER_MINUTE = 10;

/** A route open without a key (a key, when sent, is checked as usual): limited per client address. */
async function keylessLimit(request: FastifyRequest, reply: FastifyReply, options: AuthOptions): Promise<void> {
  const rate = await options.rateLimits.hit(`address:${request.ip}`, KEYLESS_REQUESTS_PER_MINUTE, options.now());
  const headers: Record<string, string> = {
    'x-ratelimit-limit': String(KEYLESS_REQUESTS_PER_MINUTE),
    'x-ratelimit-remaining': String(rate.remaining),
    'x-ratelimit-reset': String(rate.resetAt),
  };
  void reply.headers(headers);
  if (!rate.allowed) {
    throw new ApiError(
      'rate_limited',
      `Without an API key this route allows ${KEYLESS_REQUESTS_PER_MINUTE} requests per minute per address; retry in ${rate.retryAfter} s`,
      { ...headers, 'retry-after': String(rate.retryAfter) },
      { retry_after: rate.retryAfter },
    );
  }
}

/** The route pattern a request matched (`GET /api/v1/events/:eventId`): bounded, unlike URLs. */
export function endpointOf(request: FastifyRequest): string {
  const route = request.routeOptions.url;
  return route === undefined ? `${request.method} (no route)` : `${request.method} ${route}`;
}

/** The tier of the request's key (routes behind the auth hook always have one). */
/**
 * The caller's key on routes that serve one account's own records (keys, bets, alert rules):
 * they answer nothing to a request without one. Such answers must never sit in a shared cache.
 */
export function callerOf(request: FastifyRequest): AuthenticatedKey {
  const auth = request.apiKey;
  if (!auth) throw new ApiError('unauthorized', 'An API key is required');
  return auth;
}

/** `cache-control: no-store` on every answer of a plugin of per-account routes (see `callerOf`). */
export async function noStore(_request: FastifyRequest, reply: FastifyReply): Promise<void> {
  void reply.header('cache-control', 'no-store');
}

export function tierOf(request: FastifyRequest): TierName {
  return request.apiKey?.tier ?? 'free';
}

export function requireFeature(request: FastifyRequest, feature: Feature): void {
  requireFeatureOf(tierOf(request), feature);
}
