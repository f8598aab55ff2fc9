import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AccessLeases, AuthenticatedKey, KeyStore } from '../accounts/index.js';
import type { Catalog } from '../views/index.js';
import { dataEnvelope, errorResponse, nullableString } from '../contract/index.js';
import { ApiError } from '../errors.js';
import type { RateLimitStore } from '../plugins/index.js';
import { TIERS, allowedBooks, lowestTierWith } from '../../schemas/index.js';
import type { Feature } from '../../schemas/index.js';
import { hasFeature } from '../queries/index.js';
import type { Session, SessionStore } from './sessions.js';
import type { ReplyOf, UnenvelopedRouteTypes } from '../contract/index.js';

export const SESSION_COOKIE = 'odds_session';
/** The cookie goes only to the API (REST and streams), not with every static asset. */
export const SESSION_COOKIE_PATH = '/api/v1';
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Sign-in attempts per client address per minute: guessing keys through the form stays slow. */
const SIGN_IN_ATTEMPTS_PER_MINUTE = 20;

/**
 * A state-changing request carried by the cookie must come from this server's own pages.
 * SameSite=Strict already keeps the cookie off cross-site requests; the Origin check is the
 * second lock (same-site but cross-origin pages, browsers without SameSite). A request without
 * Origin is refused: every browser sends it on POST, PUT, PATCH and DELETE, and on every
 * WebSocket handshake. `what` names the request in the refusal.
 */
export function assertSameOrigin(
  request: { method?: string | undefined; headers: IncomingHttpHeaders },
  what = `A ${request.method ?? 'request'}`,
): void {
  const origin = request.headers.origin;
  const host = request.headers.host;
  let originHost: string | null = null;
  try {
    originHost = typeof origin === 'string' ? new URL(origin).host : null;
  } catch {
    originHost = null;
  }
  if (originHost === null || host === undefined || originHost !== host) {
    throw new ApiError(
      'cross_site_request',
      `${what} signed in by the session cookie needs an Origin header of this server (${host ?? 'unknown host'}); got ${typeof origin === 'string' ? `'${origin.slice(0, 200)}'` : 'none'}`,
    );
  }
}

/** A request signed in by its session cookie: the session's key, and the session (what it opens ends on sign-out). */
export interface SessionKey {
  key: AuthenticatedKey;
  session: Session;
}

/** What the auth hook and the WebSocket endpoint ask of sessions: the key behind a request's cookie, if any. */
export class SessionAuth {
  constructor(
    readonly store: SessionStore,
    private readonly keys: KeyStore,
    /** The app's cookie parser (`app.parseCookie` of @fastify/cookie), for handshakes that bypass Fastify's hooks. */
    private readonly parseCookies: (header: string) => Record<string, string | undefined>,
  ) {}

  /** The key of a live session's token (undefined: no token, or expired, signed out, key revoked). */
  private keyOf(token: string | undefined): SessionKey | undefined {
    if (token === undefined || token === '') return undefined;
    const session = this.store.get(token);
    const key = session ? this.keys.lookupId(session.keyId) : undefined;
    return session && key ? { key, session } : undefined;
  }

  authenticate(request: FastifyRequest): SessionKey | undefined {
    const signedIn = this.keyOf(request.cookies[SESSION_COOKIE]);
    if (signedIn && !SAFE_METHODS.has(request.method)) assertSameOrigin(request);
    return signedIn;
  }

  /**
   * The key of a WebSocket handshake that presents no key itself, by its session cookie
   * (undefined without one). WebSockets are outside CORS: any page may open one to us, and the
   * browser would attach the cookie (Cross-Site WebSocket Hijacking). So the handshake must come
   * from this server's own pages, checked before the session is looked up, so another site learns
   * nothing about it. Throws `cross_site_request`, or `unauthorized` for a cookie without a live session.
   */
  authenticateUpgrade(request: IncomingMessage): SessionKey | undefined {
    const header = request.headers.cookie;
    const token = header === undefined ? undefined : this.parseCookies(header)[SESSION_COOKIE];
    if (token === undefined || token === '') return undefined;
    assertSameOrigin(request, 'A WebSocket handshake');
    const signedIn = this.keyOf(token);
    if (!signedIn)
      throw new ApiError(
        'unauthorized',
        'The session cookie names no live session (expired, signed out, or its key revoked or expired): sign in again with POST /api/v1/session, or present an API key',
      );
    return signedIn;
  }
}

const FEATURE_NAMES = ['ev', 'arbitrage', 'middles', 'low_hold', 'gamestate'] as const;
type FeatureName = (typeof FEATURE_NAMES)[number];
/** low-hold is served with arbitrage (the same tiers). */
const FEATURE_OF: Record<FeatureName, Feature> = {
  ev: 'ev',
  arbitrage: 'arbitrage',
  middles: 'middles',
  low_hold: 'arbitrage',
  gamestate: 'gamestate',
};

const featureSchema = {
  type: 'object',
  required: ['available', 'required_tier'],
  properties: { available: { type: 'boolean' }, required_tier: { type: 'string', description: 'The cheapest tier that has it.' } },
};

export const sessionSchema = {
  type: 'object',
  required: [
    'tier',
    'account_id',
    'key_id',
    'expires_at',
    'data_delay_seconds',
    'requests_per_minute',
    'max_streams',
    'sportsbooks',
    'features',
  ],
  properties: {
    tier: { type: 'string' },
    account_id: { type: 'string' },
    key_id: { type: 'string' },
    account_name: nullableString,
    expires_at: { type: 'string', format: 'date-time', description: 'When the session ends; sign in again after.' },
    data_delay_seconds: { type: 'integer' },
    requests_per_minute: { type: 'integer' },
    max_streams: { type: 'integer' },
    sportsbooks: { type: 'array', items: { type: 'string' }, description: "The tier's default sportsbooks: what the screen shows." },
    features: {
      type: 'object',
      required: [...FEATURE_NAMES],
      properties: Object.fromEntries(FEATURE_NAMES.map((f) => [f, featureSchema])),
    },
  },
} as const;

const envelope = dataEnvelope(sessionSchema);
/** The signed-in session as `/session` answers it. */
type SessionInfo = ReplyOf<'/api/v1/session'>['data'];

export interface SessionRoutesOptions {
  auth: SessionAuth;
  keys: KeyStore;
  catalog: Catalog;
  rateLimits: RateLimitStore;
  now: () => number;
  /** Streams and MCP sessions opened with a session end when it is signed out (or replaced by a new sign-in). */
  access: AccessLeases;
}

/**
 * Sign-in for the web screen: the key is posted once and exchanged for an HttpOnly,
 * SameSite=Strict cookie, so no script on the page ever holds it. Outside the auth hook (it is
 * how one gets authenticated); the API and streams accept the cookie through that hook.
 */
export const sessionRoutes: FastifyPluginAsync<SessionRoutesOptions> = async (app, { auth, keys, catalog, rateLimits, now, access }) => {
  // A session answer names the signed-in key and its account: never for a shared cache.
  app.addHook('onRequest', async (_request, reply) => {
    void reply.header('cache-control', 'no-store');
  });
  const info = (record: AuthenticatedKey, expiresAt: number): SessionInfo => {
    const tier = TIERS[record.tier];
    const feature = (name: FeatureName): SessionInfo['features'][FeatureName] => ({
      available: hasFeature(record.tier, FEATURE_OF[name]),
      required_tier: lowestTierWith(FEATURE_OF[name]),
    });
    return {
      tier: record.tier,
      account_id: record.accountId,
      key_id: record.keyId,
      account_name: keys.account(record.accountId)?.name ?? null,
      expires_at: new Date(expiresAt).toISOString(),
      data_delay_seconds: tier.dataDelaySeconds,
      requests_per_minute: record.requestsPerMinute ?? tier.requestsPerMinute,
      max_streams: tier.maxStreams,
      sportsbooks: [...allowedBooks(record.tier, [...catalog.books.values()])],
      features: {
        ev: feature('ev'),
        arbitrage: feature('arbitrage'),
        middles: feature('middles'),
        low_hold: feature('low_hold'),
        gamestate: feature('gamestate'),
      },
    };
  };
  const clear = (reply: FastifyReply): void => {
    void reply.clearCookie(SESSION_COOKIE, { path: SESSION_COOKIE_PATH, httpOnly: true, sameSite: 'strict' });
  };

  app.post<UnenvelopedRouteTypes<'/api/v1/session', 'post'>>(
    '/session',
    {
      schema: {
        tags: ['account'],
        summary: 'Sign in: exchange an API key for a session cookie',
        description:
          'For browsers: the key is sent once and answered with an HttpOnly, SameSite=Strict session cookie (Secure over TLS, path /api/v1) that REST, SSE and the WebSocket endpoint (at /api/v1/ws, from a page of this server) accept in place of the key. ' +
          'The session ends at `expires_at` (SESSION_HOURS), on sign-out, or when the key is revoked. With an Origin header, it must be this server. 20 attempts per minute per client address.',
        body: {
          type: 'object',
          required: ['api_key'],
          additionalProperties: false,
          properties: { api_key: { type: 'string', minLength: 1, maxLength: 200, description: 'The API key to sign in with.' } },
        },
        response: {
          200: envelope,
          400: errorResponse('invalid_request: the body or `api_key` is missing or malformed.'),
          401: errorResponse('unauthorized: `api_key` is not a valid key.'),
          403: errorResponse('cross_site_request: the Origin header names another site.'),
          429: errorResponse('rate_limited: too many sign-in attempts from this address; see Retry-After.'),
        },
      },
    },
    async (request, reply) => {
      if (request.headers.origin !== undefined) assertSameOrigin(request);
      const rate = await rateLimits.hit(`session-sign-in:${request.ip}`, SIGN_IN_ATTEMPTS_PER_MINUTE, now());
      if (!rate.allowed) {
        throw new ApiError(
          'rate_limited',
          `Too many sign-in attempts from this address; retry in ${rate.retryAfter} s`,
          { 'retry-after': String(rate.retryAfter) },
          { retry_after: rate.retryAfter },
        );
      }
      const record = keys.lookup(request.body.api_key.trim());
      if (!record)
        throw new ApiError('unauthorized', "Invalid body field 'api_key': the API key is not valid (unknown, revoked or expired)");
      const old = request.cookies[SESSION_COOKIE];
      const replaced = old ? auth.store.delete(old) : undefined;
      if (replaced) access.endSession(replaced.id);
      const { token, session } = auth.store.create(record.keyId);
      // The next request may reach another replica: it must know the session by then.
      await auth.store.settled();
      void reply.setCookie(SESSION_COOKIE, token, {
        path: SESSION_COOKIE_PATH,
        httpOnly: true,
        sameSite: 'strict',
        secure: request.protocol === 'https',
        maxAge: Math.floor(auth.store.ttlMs / 1000),
      });
      void reply.header('cache-control', 'no-store');
      return { success: true, data: info(record, session.expiresAt), updated_at: new Date().toISOString() };
    },
  );

  app.get<UnenvelopedRouteTypes<'/api/v1/session'>>(
    '/session',
    {
      schema: {
        tags: ['account'],
        summary: 'The signed-in session',
        description:
          "The session cookie's key: tier, the sportsbooks and features it shows, and when the session ends. 401 without a live session.",
        response: {
          200: envelope,
          400: errorResponse('invalid_request: the request is malformed (its query or headers).'),
          401: errorResponse('unauthorized: no live session; sign in with POST /session.'),
          429: errorResponse('concurrent_request_cap: the client address holds too many connections already.'),
        },
      },
    },
    async (request, reply) => {
      const token = request.cookies[SESSION_COOKIE];
      const session = token ? auth.store.get(token) : undefined;
      const record = session ? keys.lookupId(session.keyId) : undefined;
      if (!session || !record) {
        if (token) clear(reply);
        throw new ApiError('unauthorized', 'No live session: sign in with POST /api/v1/session');
      }
      void reply.header('cache-control', 'no-store');
      return { success: true, data: info(record, session.expiresAt), updated_at: new Date().toISOString() };
    },
  );

  app.delete<UnenvelopedRouteTypes<'/api/v1/session', 'delete'>>(
    '/session',
    {
      schema: {
        tags: ['account'],
        summary: 'Sign out',
        description:
          'Ends the session and clears its cookie; SSE streams, WebSockets and MCP sessions opened with the cookie are closed at once. Idempotent: without a session it still answers 200.',
        response: {
          200: dataEnvelope({
            type: 'object',
            required: ['signed_out'],
            properties: { signed_out: { type: 'boolean', description: 'Whether a session cookie came with the request.' } },
          }),
          403: errorResponse('cross_site_request: the Origin header is missing or names another site.'),
        },
      },
    },
    async (request, reply) => {
      const token = request.cookies[SESSION_COOKIE];
      if (token) {
        assertSameOrigin(request);
        const ended = auth.store.delete(token);
        // What it opened here ends now; other replicas end theirs when the sign-out reaches them.
        if (ended) access.endSession(ended.id);
        await auth.store.settled();
      }
      clear(reply);
      return { success: true, data: { signed_out: token !== undefined }, updated_at: new Date().toISOString() };
    },
  );
};
