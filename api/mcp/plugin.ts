import type { IncomingMessage } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { authErrorResponses } from '../contract/common.js';
import type { ServingDeps } from '../deps.js';
import type { AuthenticatedKey } from '../accounts/index.js';
import type { Admitted, InternalPasses } from '../plugins/auth.js';
import { CALCULATOR_TOOLS } from './calculator-tools.js';
import { futuresTools } from './futures-tools.js';
import { restTools } from './rest-tools.js';
import type { RouteSchemas } from './route-schemas.js';
import { ToolRegistry, createMcpServer } from './server.js';
import { DEFAULT_SESSION_LIMITS, Sessions } from './sessions.js';
import type { Session, SessionLimits } from './sessions.js';

export interface McpOptions {
  deps: ServingDeps;
  /** The app the REST routes live on (tools answer through them in process). */
  root: FastifyInstance;
  /** Where the REST routes are mounted (not `prefix`: Fastify reads that as this plugin's own). */
  restPrefix: string;
  routeSchemas: RouteSchemas;
  passes: InternalPasses;
  sessionLimits?: SessionLimits;
}

const anyJson = { type: 'object', additionalProperties: true } as const;
const jsonRpc = (description: string): object => ({ description, content: { 'application/json': { schema: anyJson } } });
const responses = (ok: string): object => ({
  200: jsonRpc(ok),
  400: jsonRpc('A malformed or out-of-order JSON-RPC message (JSON-RPC error), or an invalid HTTP request (error envelope).'),
  404: jsonRpc('Unknown or expired Mcp-Session-Id (JSON-RPC error -32001): initialize a new session.'),
  401: authErrorResponses[401],
  429: authErrorResponses[429],
});

/**
 * The MCP tool server at /mcp: the official SDK's Streamable HTTP transport, one session per
 * `initialize`, mounted on this Fastify app behind the same key check and rate limit as REST
 * (every HTTP request to /mcp counts once; a tool call is one request).
 */
export const mcpRoutes: FastifyPluginAsync<McpOptions> = async (app, options) => {
  const { deps, root, restPrefix, routeSchemas, passes } = options;
  let registry: ToolRegistry | undefined;
  // The REST routes register after this plugin; their schemas are complete once the app is ready.
  const tools = (): ToolRegistry => (registry ??= new ToolRegistry([...restTools(root, restPrefix, routeSchemas, deps.catalog, passes), ...futuresTools(deps.catalog, deps.futures), ...CALCULATOR_TOOLS]));
  const sessions = new Sessions(() => createMcpServer(tools(), deps.version, app.log), options.sessionLimits ?? DEFAULT_SESSION_LIMITS);
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
      session = await sessions.open(key.keyId);
      fresh = true;
    } else {
      return rpcError(reply, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    }
    const raw = request.raw as IncomingMessage & { auth?: AuthInfo; rawBody?: Buffer };
    raw.rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value === undefined) continue;
      reply.raw.setHeader(name, value);
      if (name.startsWith('x-ratelimit-') || name === 'x-data-delay') headers[name] = String(value);
    }
    // The tools see the key's record (tier, id) and this request's rate-limit state, never the key itself.
    const caller: Admitted = { record: key, headers };
    raw.auth = { token: '', clientId: key.keyId, scopes: [], extra: { caller } };
    reply.hijack();
    try {
      await session.transport.handleRequest(raw, reply.raw);
    } catch (err) {
      request.log.error({ err }, 'mcp transport failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(503, { 'content-type': 'application/json' });
        reply.raw.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'The MCP server could not handle the request; retry' }, id: null }));
      } else reply.raw.end();
    } finally {
      if (fresh) await sessions.discardUnless(session);
    }
    return undefined;
  }

  app.post('/mcp', {
    schema: {
      tags: ['mcp'],
      summary: 'MCP tool server (JSON-RPC 2.0 over Streamable HTTP)',
      description:
        'One JSON-RPC message (or batch) per POST, `Accept: application/json, text/event-stream`. `initialize` without `Mcp-Session-Id` ' +
        'opens a session and answers with its id in the `Mcp-Session-Id` header; send it on every later request with `MCP-Protocol-Version`. ' +
        'Requests are answered with JSON; notifications get 202. Tools: `tools/list`. See docs/mcp.md.',
      response: responses('The JSON-RPC response.'),
    },
  }, handle);

  app.get('/mcp', {
    schema: {
      tags: ['mcp'],
      summary: 'MCP server-to-client stream (not offered)',
      description: 'This server sends nothing unprompted (the tool list is fixed), so it offers no server stream: 405, as the transport allows.',
      response: { ...responses('Never: always 405.'), 405: jsonRpc('No server-initiated stream; use POST.') },
    },
  }, async (_request, reply) => rpcError(reply.header('allow', 'POST, DELETE'), 405, -32000, 'Method not allowed: this server offers no server-initiated stream; send requests with POST'));

  app.delete('/mcp', {
    schema: {
      tags: ['mcp'],
      summary: 'End an MCP session',
      description: 'Closes the session named by `Mcp-Session-Id` (only the key that opened it can).',
      response: responses('The session is closed.'),
    },
  }, handle);
};
