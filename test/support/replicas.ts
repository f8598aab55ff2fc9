import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { startAccounts } from '../../api/accounts/index.js';
import type { AccountsReplica } from '../../api/accounts/index.js';
import { buildApp } from '../../api/app.js';
import { MemoryRateLimitStore } from '../../api/plugins/rate-limit.js';
import { changelogReader } from '../../api/queries/index.js';
import type { RunningSystem } from '../../runtime/system.js';
import { Catalog } from '../../api/views/catalog.js';
import { LiveBoard, TierViews, startChangelogViews } from '../../api/views/index.js';
import { PositionTrail } from '../../api/queries/index.js';
import { observeDeliveries } from '../../pipeline/bus/index.js';
import { TOPIC_CONFIGS } from '../../schemas/index.js';

export interface Replica {
  app: FastifyInstance;
  url: string;
  replica: AccountsReplica;
  close(): Promise<void>;
}

/**
 * Another API replica of a running system: its own KeyStore (loaded from the store, then kept by
 * its own consumer of the accounts topic), its own rate limits and streams, on the same bus,
 * store and boards, listening on 127.0.0.1.
 */
export async function startReplica(sys: RunningSystem, replicaId: string): Promise<Replica> {
  const logger = pino({ level: 'silent' });
  const replica = await startAccounts({ bus: sys.bus, store: sys.store, replicaId, logger });
  const app = await buildApp({
    board: sys.board,
    views: sys.views,
    catalog: new Catalog(),
    keys: replica.keys,
    accounts: replica.accounts,
    rateLimits: new MemoryRateLimitStore(),
    clock: sys.clock,
    store: sys.store,
    version: 'test',
    redisUrl: null,
    stream: { heartbeatMs: 60_000 },
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    url,
    replica,
    async close() {
      await app.close();
      await replica.stop();
    },
  };
}

/**
 * An API replica with boards of its own, started now: its views read the changelogs of the
 * system's bus from the beginning, as a replica started late (or restarted) does, and its live
 * board's place in the log is its own `positions` trail over the same log. Keys are the system's.
 */
export async function startBoardReplica(
  sys: RunningSystem,
  log?: { maxChanges: number; maxAgeMs: number },
): Promise<Omit<Replica, 'replica'> & { board: LiveBoard; positions: PositionTrail }> {
  const logger = pino({ level: 'silent' });
  const board = new LiveBoard({ now: () => sys.clock.now(), ...(log ? { log } : {}) });
  const views = new TierViews(board, sys.clock);
  const positions = new PositionTrail(sys.positions.log, board.log, (topic) => TOPIC_CONFIGS[topic].partitions, changelogReader(sys.bus));
  const stages = startChangelogViews(observeDeliveries(sys.bus, positions.record), board, `board-replica-${Date.now()}`, logger);
  const app = await buildApp({
    board,
    views,
    positions,
    catalog: new Catalog(),
    keys: sys.keys,
    accounts: sys.accounts,
    rateLimits: new MemoryRateLimitStore(),
    clock: sys.clock,
    store: sys.store,
    version: 'test',
    redisUrl: null,
    stream: { heartbeatMs: 60_000 },
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    url,
    board,
    positions,
    async close() {
      await app.close();
      views.close();
      await Promise.all(stages.map((s) => s.stop()));
    },
  };
}

/** Resolves when `pred` holds (checked every 10 ms); rejects after `timeoutMs` naming `what`. */
export async function eventually(pred: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-03-26',
};

export interface McpAnswer {
  status: number;
  headers: Headers;
  body: Record<string, unknown> | null;
}

/** One JSON-RPC message to /api/v1/mcp, as an agent's transport sends it. */
export async function mcpPost(base: string, auth: Record<string, string>, message: object, sessionId?: string): Promise<McpAnswer> {
  const res = await fetch(`${base}/api/v1/mcp`, {
    method: 'POST',
    headers: { ...MCP_HEADERS, ...auth, ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId }) },
    body: JSON.stringify(message),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text.length > 0 ? (JSON.parse(text) as Record<string, unknown>) : null };
}

/** `initialize` then `notifications/initialized`: the session id (throws when refused). */
export async function mcpSession(base: string, auth: Record<string, string>): Promise<string> {
  const init = await mcpPost(base, auth, {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'security-test', version: '1' } },
  });
  const id = init.headers.get('mcp-session-id');
  if (init.status !== 200 || id === null) throw new Error(`initialize answered ${init.status}: ${JSON.stringify(init.body)}`);
  await mcpPost(base, auth, { jsonrpc: '2.0', method: 'notifications/initialized' }, id);
  return id;
}

/** `tools/list` in a session: the HTTP status and the JSON-RPC error code, if any. */
export async function mcpList(base: string, auth: Record<string, string>, sessionId: string): Promise<[number, unknown]> {
  const r = await mcpPost(base, auth, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, sessionId);
  return [r.status, (r.body?.['error'] as Record<string, unknown> | undefined)?.['code'] ?? null];
}
