/**
 * An MCP session keeps nothing of the requests it has answered. The SDK's transport (1.x, JSON
 * response mode) kept one entry per answered POST, holding the whole request, until the session
 * closed: the soak's heap grew with every MCP call (docs/soak.md).
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonStreamEntries } from './answered-streams.js';
import { CALCULATOR_TOOLS } from './calculator-tools.js';
import { ToolRegistry, createMcpServer } from './server.js';
import { Sessions } from './sessions.js';
import type { Session } from './sessions.js';

const key = { keyId: 'k1', accountId: 'a1', tier: 'enterprise' as const };
let server: Server | null = null;
const clients: Client[] = [];

/** The plugin's request path without Fastify: open or find the session, then let it answer. */
async function startSessions(): Promise<{ url: URL; sessions: Session[] }> {
  const registry = new ToolRegistry(CALCULATOR_TOOLS);
  const sessions = new Sessions(() => createMcpServer(registry, '0.0.0', pino({ level: 'silent' })));
  const opened: Session[] = [];
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = chunks.length > 0 ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown) : undefined;
        const id = req.headers['mcp-session-id'];
        let session = typeof id === 'string' ? sessions.find(id, key.keyId) : undefined;
        const fresh = session === undefined;
        session ??= await sessions.open(key);
        if (fresh) opened.push(session);
        await sessions.handle(session, req, res, body);
        if (fresh) await sessions.discardUnless(session);
      })();
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return { url: new URL(`http://127.0.0.1:${address.port}/mcp`), sessions: opened };
}

async function connect(url: URL): Promise<Client> {
  const client = new Client({ name: 'answered-streams-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url));
  clients.push(client);
  return client;
}

afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((c) => c.close()));
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = null;
});

describe('an MCP session after its requests are answered', () => {
  it('holds no stream entry for any of 40 answered requests', async () => {
    const { url, sessions } = await startSessions();
    const client = await connect(url);
    for (let i = 0; i < 40; i++) expect((await client.listTools()).tools.length).toBe(CALCULATOR_TOOLS.length);
    expect(sessions).toHaveLength(1);
    expect(jsonStreamEntries((sessions[0] as Session).transport)).toBe(0);
  });

  it('answers 10 concurrent requests of one session, then holds none of them', async () => {
    const { url, sessions } = await startSessions();
    const client = await connect(url);
    const answers = await Promise.all(Array.from({ length: 10 }, () => client.listTools()));
    expect(answers.map((a) => a.tools.length)).toEqual(Array.from({ length: 10 }, () => CALCULATOR_TOOLS.length));
    expect(jsonStreamEntries((sessions[0] as Session).transport)).toBe(0);
  });
});
