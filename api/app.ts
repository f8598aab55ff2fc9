import { randomUUID } from 'node:crypto';
import Fastify, { LogController } from 'fastify';
import type { FastifyInstance, FastifyReply } from 'fastify';
import swagger from '@fastify/swagger';
import cookie from '@fastify/cookie';
import type { Logger } from 'pino';
import { ERROR_CODES, errorBody } from './errors.js';
import type { AppDeps, ServingDeps } from './deps.js';
import { authPlugin } from './plugins/index.js';
import { envelopePlugin } from './plugins/index.js';
import { RouteSchemas, mcpRoutes } from './mcp/index.js';
import { errorsPlugin } from './plugins/index.js';
import { DEFAULT_HTTP_LIMITS, clientErrorHandler, connectionsCheckingInterval, httpGuardPlugin } from './plugins/index.js';
import { loadSheddingPlugin } from './plugins/index.js';
import { jsonBodyPlugin } from './plugins/index.js';
import { finiteNumbersPlugin } from './plugins/index.js';
import { hardeningHeaders, hardeningPlugin } from './plugins/index.js';
import { metricsPlugin } from './plugins/index.js';
import { eventsRoutes } from './routes/index.js';
import { futuresRoutes } from './routes/index.js';
import { gameStateRoutes } from './routes/index.js';
import { closingRoutes } from './routes/index.js';
import { fairRoutes } from './routes/index.js';
import { healthRoutes } from './routes/index.js';
import { oddsRoutes } from './routes/index.js';
import { oddsBatchRoutes } from './routes/index.js';
import { opportunitiesRoutes } from './routes/index.js';
import { betRoutes } from './routes/index.js';
import { alertRoutes } from './routes/index.js';
import { accountRoutes } from './routes/index.js';
import type { AccountStreams } from './routes/index.js';
import { TIERS, settingDefault } from '../schemas/index.js';
import { deepLinkBatchRoutes, deepLinkRoutes } from './routes/index.js';
import { DeepLinkResolver, RowIdIndex, templateOrigins } from './deeplinks/index.js';
import { OpportunityBoard } from './views/index.js';
import { oddsDeltaRoutes } from './routes/index.js';
import { TierViews } from './views/index.js';
import { referenceRoutes } from './routes/index.js';
import { streamPlugin } from './stream/index.js';
import type { StreamService } from './stream/index.js';
import { splitsRoutes } from './routes/index.js';
import { eventHistoryRoutes } from './routes/index.js';
import { RedisSessions, SessionAuth, SessionStore, sessionRoutes } from './session/index.js';
import { AccessLeases } from './accounts/index.js';
import { webPlugin } from './web.js';

export const API_PREFIX = '/api/v1';
export const API_VERSION = '2.0.0';

/**
 * The API as a Fastify instance, ready for `inject()` or `listen()`. Routes under /api/v1,
 * everything but /health behind the auth plugin's hook.
 */
export async function buildApp(appDeps: AppDeps, logger?: Logger): Promise<FastifyInstance> {
  const views = appDeps.views ?? new TierViews(appDeps.board, appDeps.clock);
  const deps: ServingDeps = { ...appDeps, views };
  // Embedded without settings (tests, benches): the default limits, but no shedding, which would
  // turn a busy test machine's pauses into 503s. The configured system always passes its limits.
  const limits = appDeps.http ?? { ...DEFAULT_HTTP_LIMITS, shedEventLoopDelayMs: 0 };
  // Fastify's instance type is parameterised by the logger; the callers only need the base type.
  const app = Fastify({
    ...(logger ? { loggerInstance: logger } : { logger: false }),
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    // Per-request log lines cost more than the request at the volumes this API serves.
    logController: new LogController({ disableRequestLogging: true }),
    // verbose: a refused value travels with its error, so an enum refusal can name the value it likely meant.
    ajv: { customOptions: { coerceTypes: 'array', allErrors: false, removeAdditional: false, verbose: true } },
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    // A URL that is not valid percent-encoding never reaches a route: answer it in the envelope too.
    frameworkErrors: (error, request, reply) => {
      void (reply as unknown as FastifyReply)
        .code(400)
        .header('x-request-id', request.id)
        .headers(hardeningHeaders(request.url, API_PREFIX))
        .send(errorBody('invalid_request', error.code === 'FST_ERR_BAD_URL' ? 'Invalid URL: malformed percent-encoding' : error.message));
    },
    // A stalled upload is cut off with 408: nobody holds a socket by sending a body slowly. Node
    // checks these deadlines in its timers phase, before reading sockets: a loop blocked longer
    // than a timeout turns requests waiting unread into 408s, so the defaults stay generous.
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: {
      headersTimeout: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs),
      connectionsCheckingInterval: connectionsCheckingInterval(limits),
      maxHeaderSize: 16 * 1024,
      // Node answers a request without Host with an empty 400; the guard plugin answers it in the envelope.
      requireHostHeader: false,
    },
    clientErrorHandler,
  });
  // Hooks without I/O call `done` rather than return a promise (a microtask turn per hook per request).
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });
  await app.register(hardeningPlugin, { apiPrefix: API_PREFIX });
  await app.register(httpGuardPlugin, { limits });
  // MCP tools are described by the REST routes' schemas; record them as the routes register.
  const routeSchemas = new RouteSchemas();
  app.addHook('onRoute', routeSchemas.record);
  if (!appDeps.views) app.addHook('onClose', async () => views.close());

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Odds platform API',
        version: API_VERSION,
        description: 'Real-time sports odds from many sportsbooks, and the betting opportunities derived from them.',
      },
      servers: [{ url: '/' }],
      tags: [
        { name: 'health', description: 'Service health, no key needed.' },
        { name: 'reference', description: 'Sports, leagues, sportsbooks, market types and teams.' },
        { name: 'events', description: 'Events aggregated from the current odds.' },
        { name: 'odds', description: 'Latest odds, best prices, comparison, batch and deltas.' },
        { name: 'opportunities', description: '+EV, arbitrage, middles and low-hold opportunities derived from the latest odds.' },
        {
          name: 'streams',
          description: 'Server-Sent Events pushing odds and opportunity changes (the WebSocket endpoint is described in docs/api.md).',
        },
        { name: 'account', description: 'The account of the key in use: tier, usage, and its API keys.' },
        { name: 'deeplinks', description: 'Links from odds and opportunities to the sportsbook pages.' },
        {
          name: 'splits',
          description:
            'Betting splits (bet % and handle %) from a recreational and a sharp-friendly book, with history and sharp-money signals.',
        },
        { name: 'gamestate', description: 'Live score, period, clock and possession (Enterprise).' },
        { name: 'closing', description: 'Closing lines, their history and closing-line value (CLV) of +EV opportunities.' },
        {
          name: 'futures',
          description:
            'Outright markets (championship, MVP, season wins, playoffs): the list, prices at every book, fair lines and futures +EV.',
        },
        { name: 'bets', description: 'The bet ledger: bets you log, graded against the closing line and settled on the result.' },
        { name: 'alerts', description: 'Alert rules on the opportunity lists, delivered to signed webhooks; see docs/alerts.md.' },
        { name: 'mcp', description: 'MCP tool server (JSON-RPC 2.0 over Streamable HTTP) for AI agents; see docs/mcp.md.' },
      ],
      components: {
        securitySchemes: {
          apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          bearer: { type: 'http', scheme: 'bearer' },
          apiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key' },
        },
      },
      security: [{ apiKeyHeader: [] }, { bearer: [] }, { apiKeyQuery: [] }],
    },
  });
  await app.register(errorsPlugin);
  await app.register(cookie);
  const sessions = new SessionAuth(
    new SessionStore(appDeps.sessionTtlMs ?? settingDefault('SESSION_HOURS') * 3_600_000),
    deps.keys,
    (header) => app.parseCookie(header),
  );
  // Streams and MCP sessions hold their key's access here, so whatever ends a key or a browser session ends them too.
  const access = new AccessLeases(deps.keys, Date.now, undefined, (err) =>
    app.log.error({ err }, 'ending a stream or MCP session whose access ended failed'),
  );
  app.addHook('onClose', async () => access.close());
  if (appDeps.redisUrl !== null) {
    // Every replica holds every browser session: no balancer stickiness, sign-out ends streams everywhere.
    const shared = new RedisSessions({
      url: appDeps.redisUrl,
      logger: app.log.child({ component: 'sessions' }),
      store: sessions.store,
      onEnded: (sessionId) => access.endSession(sessionId),
    });
    if (!(await shared.start())) app.log.warn('Redis not reachable yet: browser sessions start in this replica only');
    app.addHook('onClose', async () => shared.close());
  }
  if (appDeps.webRoot !== undefined) await app.register(webPlugin, { root: appDeps.webRoot });
  await app.register(jsonBodyPlugin);
  await app.register(finiteNumbersPlugin);
  await app.register(metricsPlugin, {
    board: appDeps.board,
    token: appDeps.metricsToken ?? null,
    store: appDeps.store,
    ...(appDeps.pipelineStats ? { pipelineStats: appDeps.pipelineStats } : {}),
  });

  const rowIds = new RowIdIndex(deps.board);
  const opportunityBoard = deps.opportunities ?? new OpportunityBoard();
  const deepLinks = new DeepLinkResolver(deps.catalog, deps.board, rowIds, opportunityBoard);
  await app.register(
    async (open) => {
      await open.register(healthRoutes, { deps });
      await open.register(deepLinkRoutes, { resolver: deepLinks, origins: templateOrigins(deps.catalog.deepLinks) });
      await open.register(sessionRoutes, {
        auth: sessions,
        keys: deps.keys,
        catalog: deps.catalog,
        rateLimits: deps.rateLimits,
        now: () => Date.now(),
        access,
      });
      open.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
      open.get('/docs/errors', { schema: { hide: true } }, async () => ({
        success: true,
        data: Object.entries(ERROR_CODES).map(([code, e]) => ({ code, status: e.status, description: e.description })),
      }));
    },
    { prefix: API_PREFIX },
  );

  let streamService: StreamService | undefined;
  await app.register(
    async (authed) => {
      // Shed before authenticating: a refused request costs nothing and counts against no limit.
      await authed.register(loadSheddingPlugin, {
        maxEventLoopDelayMs: limits.shedEventLoopDelayMs,
        turnBudgetMs: limits.shedTurnBudgetMs,
        // Ending an MCP session frees what it holds: refusing that under load keeps the load.
        admitted: (request) => request.method === 'DELETE' && request.routeOptions.url === `${API_PREFIX}/mcp`,
        ...(appDeps.loadProbe ? { probe: appDeps.loadProbe } : {}),
      });
      await authed.register(authPlugin, {
        keys: deps.keys,
        rateLimits: deps.rateLimits,
        now: () => Date.now(),
        sessions,
        ...(deps.usage ? { usage: deps.usage } : {}),
      });
      await authed.register(envelopePlugin, appDeps.inspectPayload ? { inspect: appDeps.inspectPayload } : {});
      await authed.register(referenceRoutes, { deps });
      await authed.register(eventsRoutes, { deps });
      await authed.register(oddsRoutes, { deps });
      await authed.register(oddsDeltaRoutes, { deps });
      await authed.register(oddsBatchRoutes, { deps });
      await authed.register(opportunitiesRoutes, { deps });
      await authed.register(fairRoutes, { deps });
      await authed.register(streamPlugin, {
        deps: {
          views,
          catalog: deps.catalog,
          ...(deps.opportunities ? { opportunities: deps.opportunities } : {}),
          now: () => deps.clock.now(),
          ...(deps.stream ? { settings: deps.stream } : {}),
          ...(deps.splits ? { splits: deps.splits } : {}),
          ...(deps.gameStates ? { gameStates: deps.gameStates } : {}),
          ...(deps.alerts ? { alerts: deps.alerts } : {}),
          ...(deps.positions ? { positions: deps.positions } : {}),
        },
        keys: deps.keys,
        access,
        sessions,
        onService: (service) => {
          streamService = service;
          appDeps.onStreams?.(service);
        },
      });
      const accountStreams: AccountStreams = {
        open: (accountId) => streamService?.hub.openStreams(accountId) ?? 0,
        max: (tier, accountId) => streamService?.hub.options.maxStreams(tier, accountId) ?? TIERS[tier].maxStreams,
      };
      if (deps.accounts) await authed.register(accountRoutes, { deps, accounts: deps.accounts, streams: accountStreams });
      if (deps.accounts) await authed.register(alertRoutes, { deps, accounts: deps.accounts });
      await authed.register(deepLinkBatchRoutes, { resolver: deepLinks });
      await authed.register(splitsRoutes, { deps });
      await authed.register(gameStateRoutes, { deps });
      await authed.register(closingRoutes, { deps });
      await authed.register(futuresRoutes, { deps });
      await authed.register(eventHistoryRoutes, { deps });
      const betSource = deps.bets ? { ...deps, bets: deps.bets, rows: rowIds, opportunities: opportunityBoard } : undefined;
      if (betSource) await authed.register(betRoutes, { source: betSource });
      await authed.register(mcpRoutes, {
        ...(betSource ? { bets: betSource } : {}),
        deps,
        restPrefix: API_PREFIX,
        routeSchemas,
        access,
        ...(appDeps.mcpSessions ? { sessionLimits: appDeps.mcpSessions } : {}),
      });
    },
    { prefix: API_PREFIX },
  );

  return app as unknown as FastifyInstance;
}
