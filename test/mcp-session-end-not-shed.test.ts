/**
 * What went wrong: in the hour-long soak (docs/soak.md, round twelve) an MCP client's closing
 * `DELETE /mcp` met load shedding's 503, which the official SDK reports as a failed run and does
 * not retry; the session then held its slot until it idled out 30 minutes later. Ending a session
 * frees what it holds, so it is never shed; everything else keyed still is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualLoadProbe } from './support/manual-load-probe.js';
import { startBareApp } from './support/raw-http.js';
import type { BareApp } from './support/raw-http.js';

describe('ending an MCP session while the server sheds load (delay 250 ms over a 200 ms threshold)', () => {
  let s: BareApp;
  const probe = new ManualLoadProbe(true);
  beforeAll(async () => {
    s = await startBareApp({ shedEventLoopDelayMs: 200, shedTurnBudgetMs: 50 }, { loadProbe: probe });
  });
  afterAll(async () => {
    await s.close();
  });

  it('is admitted and ends the session, while other keyed requests, to the session too, are refused', async () => {
    probe.delayMs = undefined;
    const accept = 'application/json, text/event-stream';
    const opened = await s.app.inject({
      method: 'POST',
      url: '/api/v1/mcp',
      headers: { 'x-api-key': s.key, accept },
      payload: {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'soak', version: '1' } },
      },
    });
    const session = opened.headers['mcp-session-id'];
    expect([opened.statusCode, typeof session]).toEqual([200, 'string']);
    const headers = { 'x-api-key': s.key, accept, 'mcp-session-id': String(session) };
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };

    probe.delayMs = 250;
    const [read, call] = await Promise.all([
      s.app.inject({ url: '/api/v1/sports', headers }),
      s.app.inject({ method: 'POST', url: '/api/v1/mcp', headers, payload: list }),
    ]);
    expect([read.statusCode, call.statusCode]).toEqual([503, 503]);
    const end = await s.app.inject({ method: 'DELETE', url: '/api/v1/mcp', headers });
    expect(end.statusCode).toBe(200);

    probe.delayMs = 200;
    const after = await s.app.inject({ method: 'POST', url: '/api/v1/mcp', headers, payload: list });
    expect([after.statusCode, (after.json() as { error: { code: number } }).error.code]).toEqual([404, -32001]);
  });
});
