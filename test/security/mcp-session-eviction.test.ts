/**
 * Attack: knock other users' AI agents off the MCP server.
 *
 * What went wrong: at the global session cap a new `initialize` ended the least recently used
 * session of any key (api/mcp/sessions.ts). With keys minted by rotation, one client could open
 * sessions until the cap and then end every other user's agent session, one initialize each.
 *
 * Now the global cap refuses the new session (HTTP 503, Retry-After, a JSON-RPC error) and never
 * ends another account's session; the per-account cap makes room by ending the account's own least
 * recently used session (an agent that initializes again has lost its old one).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Accounts, KeyStore } from '../../api/accounts/index.js';
import { buildApp } from '../../api/app.js';
import { MemoryRateLimitStore } from '../../api/plugins/rate-limit.js';
import { LiveBoard } from '../../api/views/board.js';
import { Catalog } from '../../api/views/catalog.js';
import { ManualClock } from '../../pipeline/clock.js';
import type { OlapStore } from '../../pipeline/store/index.js';
import { mcpList, mcpPost, mcpSession } from '../support/replicas.js';

/** Keys are the only thing these tests keep; nothing reads the store back. */
const noStore: OlapStore = {
  kind: 'chdb',
  exec: async () => undefined,
  insert: async () => undefined,
  query: async () => [],
  close: async () => undefined,
};
let app: FastifyInstance;
let url: string;
let accounts: Accounts;

/** An account with `n` pro keys; their secrets. */
async function account(name: string, n: number): Promise<Record<string, string>[]> {
  const a = await accounts.createAccount(name);
  const out: Record<string, string>[] = [];
  for (let i = 0; i < n; i++)
    out.push({ 'x-api-key': (await accounts.createKey(a.id, { tier: 'pro', requestsPerMinute: 100_000 })).secret });
  return out;
}

beforeAll(async () => {
  const keys = new KeyStore();
  accounts = new Accounts(keys, noStore, null, Date.now);
  app = await buildApp({
    board: new LiveBoard(),
    catalog: new Catalog(),
    keys,
    accounts,
    rateLimits: new MemoryRateLimitStore(),
    clock: new ManualClock(0),
    store: noStore,
    version: 'test',
    redisUrl: null,
    mcpSessions: { total: 3, perAccount: 2 },
  });
  url = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await app?.close();
});

describe('MCP sessions at the caps', () => {
  it("refuse a new session at the global cap with 503 and Retry-After, ending nobody's; the account's own cap replaces its own oldest", async () => {
    const [victim] = (await account('victim', 1)) as [Record<string, string>];
    const [k1, k2] = (await account('attacker', 2)) as [Record<string, string>, Record<string, string>];
    const [other] = (await account('other', 1)) as [Record<string, string>];
    const v = await mcpSession(url, victim);
    const a1 = await mcpSession(url, k1);
    const a2 = await mcpSession(url, k2);

    // Full (3 of 3): another account is refused, and the victim's session stays.
    const refused = await mcpPost(url, other, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(refused.headers.get('mcp-session-id')).toBeNull();
    expect(refused.body).toEqual({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'The server holds as many MCP sessions as it allows; retry in 30 s' },
      id: null,
    });
    expect(await mcpList(url, victim, v)).toEqual([200, null]);

    // The attacker's account is at its own cap (2): its new session replaces its least recently used one, not the victim's.
    expect(await mcpList(url, k2, a2)).toEqual([200, null]);
    const a3 = await mcpSession(url, k1);
    expect(await mcpList(url, k1, a1)).toEqual([404, -32001]);
    expect(await mcpList(url, k2, a2)).toEqual([200, null]);
    expect(await mcpList(url, k1, a3)).toEqual([200, null]);
    expect(await mcpList(url, victim, v)).toEqual([200, null]);

    // A session that ends frees its place.
    const ended = await fetch(`${url}/api/v1/mcp`, {
      method: 'DELETE',
      headers: { ...victim, 'mcp-session-id': v, 'mcp-protocol-version': '2025-03-26' },
    });
    expect(ended.status).toBe(200);
    const o = await mcpSession(url, other);
    expect(await mcpList(url, other, o)).toEqual([200, null]);
  });
});
