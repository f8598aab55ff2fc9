import type { IncomingMessage } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { authErrorResponses } from '../contract/index.js';
import type { AccessLeases, AuthenticatedKey } from '../accounts/index.js';
import { GameStateBoard } from '../views/index.js';
import { OpportunityBoard } from '../views/index.js';
import { SplitsBoard } from '../views/index.js';
import { CALCULATOR_TOOLS } from './calculator-tools.js';
import { queryTools } from './query-tools.js';
import type { McpDeps, ToolSources } from './query-tools.js';
import type { BetSource } from '../queries/index.js';
import { futuresTools } from './futures-tools.js';
import type { RouteSchemas } from './route-schemas.js';
import { ToolRegistry, createMcpServer } from './server.js';
import { DEFAULT_SESSION_LIMITS, SESSIONS_FULL_RETRY_AFTER_S, Sessions } from './sessions.js';
import type { Session, SessionLimits } from './sessions.js';
import type { ToolCaller } from './tool.js';

export interface McpOptions {
  deps: McpDeps;
  /** Where the REST routes are mounted (not `prefix`: Fastify reads that as this plugin's own). */
  restPrefix: string;
  /** The REST routes' schemas, which describe the tools' arguments and answers. */
  routeSchemas: RouteSchemas;
  sessionLimits?: Partial<SessionLimits>;
  /** Ends sessions whose key stops being usable (revoked, expired, moved tier) or whose browser session signs out. */
  access?: AccessLeases;
  /** The bet ledger the bet tools read and write (the /bets routes' source). */
  bets?: BetSource;
}

const anyJson = { type: 'object', additionalProperties: true } as const;
const jsonRpc = (description: string): object => ({ description, content: { 'application/json': { schema: anyJson } } });
const responses = (ok: string): object => ({
  200: jsonRpc(ok),
  400: jsonRpc('A malformed or out-of-order JSON-RPC message (JSON-RPC error), or an invalid HTTP request (error envelope).'),
  404: jsonRpc('Unknown or expired Mcp-Session-Id (JSON-RPC error -32001): initialize a new session.'),
  503: jsonRpc(
    'The server holds as many MCP sessions as it allows (JSON-RPC error -32000): retry the initialize after Retry-After seconds.',
  ),
  401: authErrorResponses[401],
  429: authErrorResponses[429],
});

/**
 * The MCP tool server at /mcp: the official SDK's Streamable HTTP transport, one session per
 * `initialize`, mounted on this Fastify app behind the same key check and rate limit as REST
 * (every HTTP request to /mcp counts once; a tool call is one request).
 */
function parsedJson(body: Buffer): unknown {
  try {
    return body.length === 0 ? undefined : (JSON.parse(body.toString('utf8')) as unknown);
  } catch {
    return undefined;
  }
}

export const mcpRoutes: FastifyPluginAsync<McpOptions> = async (app, options) => {
  const { deps, restPrefix, routeSchemas } = options;
  // The boards the routes read; a process without a stage behind one serves it empty, as REST does.
  const sources: ToolSources = {
    deps,
    opportunities: { deps, opportunities: deps.opportunities ?? new OpportunityBoard() },
    splits: { deps, splits: deps.splits ?? new SplitsBoard(deps.clock, { syncEveryMs: 0 }) },
    gameStates: deps.gameStates ?? new GameStateBoard(),
    ...(deps.accounts ? { accounts: deps.accounts } : {}),
    ...(options.bets ? { bets: options.bets } : {}),
  };
  let registry: ToolRegistry | undefined;
  // The tools are described by the REST routes' schemas, complete once the app is ready.
  const tools = (): ToolRegistry =>
    (registry ??= new ToolRegistry([
      ...queryTools(sources, routeSchemas, restPrefix),
      ...futuresTools(deps.catalog, deps.futures),
      ...CALCULATOR_TOOLS,
    ]));
  const sessions = new Sessions(
    () => createMcpServer(tools(), deps.version, app.log),
    { ...DEFAULT_SESSION_LIMITS, ...options.sessionLimits },
    Date.now,
    options.access,
  );
  app.addHook('onClose', async () => sessions.closeAll());
  // Built when the app is ready (every route registered), so a tool whose route is missing stops the start.
  app.addHook('onReady', async () => {
    tools();
  });

  // The transport reads the body itself, so a malformed one is answered as a JSON-RPC parse error.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => {
    done(null, body);
  });

  function rpcError(reply: FastifyReply, status: number, code: number, message: string): FastifyReply {
    return reply.code(status).type('application/json').send({ jsonrpc: '2.0', error: { code, message }, id: null });
  }

  async function handle(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const key = request.apiKey as AuthenticatedKey;
    const header = request.headers['mcp-session-id'];
    const sessionId = typeof header === 'string' && header.length > 0 ? header : undefined;
    let session: Session | undefined;
    let fresh = false;
    if (sessionId !== undefined) {
      session = sessions.find(sessionId, key.keyId);
      if (!session) return rpcError(reply, 404, -32001, 'Session not found: send initialize without Mcp-Session-Id to start a new one');
    } else if (request.method === 'POST') {
      if (!sessions.admits(key.accountId)) {
        // Refused rather than making room: ending another client's session would let one client knock every other agent out.
        return rpcError(
          reply.header('retry-after', String(SESSIONS_FULL_RETRY_AFTER_S)),
          503,
          -32000,
          `The server holds as many MCP sessions as it allows; retry in ${SESSIONS_FULL_RETRY_AFTER_S} s`,
        );
      }
      session = await sessions.open(key, request.browserSession ?? undefined);
      fresh = true;
    } else {
      return rpcError(reply, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    }
    const raw = request.raw as IncomingMessage & { auth?: AuthInfo; rawBody?: Buffer };
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    raw.rawBody = body;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value === undefined) continue;
      reply.raw.setHeader(name, value);
      if (name.startsWith('x-ratelimit-') || name === 'x-data-delay') headers[name] = String(value);
    }
    // The tools see the key's record (tier, id) and this request's rate-limit state, never the key itself.
    const caller: ToolCaller = { record: key, headers, compile: (schema) => request.compileValidationSchema(schema, 'body') };
    raw.auth = { token: '', clientId: key.keyId, scopes: [], extra: { caller } };
    reply.hijack();
    try {
      // Parsed here, the message skips the transport's web-stream read of the body; a body that is
      // not JSON is left to the transport, which answers it with its JSON-RPC parse error.
      await sessions.handle(session, raw, reply.raw, request.method === 'POST' ? parsedJson(body) : undefined);
    } catch (err) {
      request.log.error({ err }, 'mcp transport failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(503, { 'content-type': 'application/json' });
        reply.raw.end(
          JSON.stringify({
            jsonrpc: '2.0',
            error: { code: -32603, message: 'The MCP server could not handle the request; retry' },
            id: null,
          }),
        );
      } else reply.raw.end();
    } finally {
      if (fresh) await sessions.discardUnless(session);
    }
    return undefined;
  }

  app.post(
    '/mcp',
    {
      schema: {
        tags: ['mcp'],
        summary: 'MCP tool server (JSON-RPC 2.0 over Streamable HTTP)',
        description:
          'One JSON-RPC message (or batch) per POST, `Accept: application/json, text/event-stream`. `initialize` without `Mcp-Session-Id` ' +
          'opens a session and answers with its id in the `Mcp-Session-Id` header; send it on every later request with `MCP-Protocol-Version`. ' +
          'Requests are answered with JSON; notifications get 202. Tools: `tools/list`. See docs/mcp.md.',
        response: responses('The JSON-RPC response.'),
      },
    },
    handle,
  );

  app.get(
    '/mcp',
    {
      schema: {
        tags: ['mcp'],
        summary: 'MCP server-to-client stream (not offered)',
        description:
          'This server sends nothing unprompted (the tool list is fixed), so it offers no server stream: 405, as the transport allows.',
        response: { ...responses('Never: always 405.'), 405: jsonRpc('No server-initiated stream; use POST.') },
      },
    },
    async (_request, reply) =>
      rpcError(
        reply.header('allow', 'POST, DELETE'),
        405,
        -32000,
        'Method not allowed: this server offers no server-initiated stream; send requests with POST',
      ),
  );

  app.delete(
    '/mcp',
    {
      schema: {
        tags: ['mcp'],
        summary: 'End an MCP session',
        description: 'Closes the session named by `Mcp-Session-Id` (only the key that opened it can).',
        response: responses('The session is closed.'),
      },
    },
    handle,
  );
};
