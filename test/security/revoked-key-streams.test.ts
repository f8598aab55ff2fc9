/**
 * Attack: keep using a key after its account revoked it, through access that lasts.
 *
 * What went wrong: revocation was checked only when a request arrived. A hobby key with an open
 * SSE stream and an open WebSocket was revoked by another key of its account (DELETE
 * /account/keys/{id} answered 200, REST with the key answered 401 at once), yet the SSE stream
 * kept delivering odds:update frames and the WebSocket kept sending updates until the client hung
 * up; the same on a replica that only received the revocation over the accounts topic.
 *
 * Now every stream and MCP session holds its key's access in one registry per replica, which the
 * KeyStore tells of every key change on whichever path it arrives: the SSE stream gets an error
 * frame and ends, the WebSocket closes with 4001 and the reason, the MCP session is gone.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { conformanceForFile } from '../support/fixture.js';
import type { Conformance } from '../support/fixture.js';
import { eventually, mcpList, mcpSession, startReplica } from '../support/replicas.js';
import type { Replica } from '../support/replicas.js';
import { SseClient, WsClient } from '../support/stream-clients.js';

let c: Conformance;
let b: Replica;

/** An account with two hobby keys, made the durable way (store and topic), so every replica knows them. */
async function accountWithTwoKeys(): Promise<{ victim: { id: string; secret: string }; owner: string }> {
  const account = await c.sys.accounts.createAccount('attacker');
  const victim = await c.sys.accounts.createKey(account.id, { tier: 'hobby', name: 'victim', requestsPerMinute: 100_000 });
  const owner = await c.sys.accounts.createKey(account.id, { tier: 'hobby', name: 'owner', requestsPerMinute: 100_000 });
  return { victim: { id: victim.record.id, secret: victim.secret }, owner: owner.secret };
}

async function revoke(keyId: string, owner: string): Promise<number> {
  const res = await fetch(`${c.sys.url}/api/v1/account/keys/${keyId}`, { method: 'DELETE', headers: { 'x-api-key': owner } });
  return res.status;
}

async function openStreams(base: string, secret: string): Promise<{ sse: SseClient; ws: WsClient }> {
  const sse = await SseClient.open(`${base}/api/v1/stream?channel=odds&api_key=${secret}`);
  expect(sse.status).toBe(200);
  await sse.until((f) => f.some((x) => x.event === 'snapshot:complete'));
  const ws = await WsClient.open(`${base.replace(/^http/, 'ws')}/api/v1/ws?channels=odds&api_key=${secret}`);
  await ws.until((m) => m.some((x) => x.type === 'snapshot:complete'));
  return { sse, ws };
}

/** How each stream ended, and in how many ms after `from`. */
async function ends(
  sse: SseClient,
  ws: WsClient,
  from: number,
): Promise<{ sseLast: unknown; wsLast: unknown; close: [number | null, string | null]; ms: number }> {
  await eventually(() => sse.ended && ws.closeCode !== null, 'both streams to end', 3000);
  const last = ws.messages.at(-1);
  return {
    sseLast: { event: sse.frames.at(-1)?.event, data: sse.frames.at(-1)?.data },
    wsLast: { type: last?.type, code: last?.['code'] },
    close: [ws.closeCode, ws.closeReason],
    ms: Date.now() - from,
  };
}

conformanceForFile(async (started) => {
  c = started;
  b = await startReplica(c.sys, 'security-b');
});
// Registered after the system's own hook, so it runs before it: the replica stops first.
afterAll(async () => {
  await b?.close();
});

describe('a revoked key', () => {
  it('loses its SSE stream (error frame, then the end) and its WebSocket (4001 key_revoked) on the replica that revoked it', async () => {
    const { victim, owner } = await accountWithTwoKeys();
    const { sse, ws } = await openStreams(c.sys.url, victim.secret);

    const at = Date.now();
    expect(await revoke(victim.id, owner)).toBe(200);
    const ended = await ends(sse, ws, at);
    expect(ended.sseLast).toEqual({ event: 'error', data: { code: 'key_revoked', message: 'The API key was revoked' } });
    expect(ended.wsLast).toEqual({ type: 'error', code: 'key_revoked' });
    expect(ended.close).toEqual([4001, 'key_revoked']);
    expect(ended.ms).toBeLessThan(1000);
    // And it cannot come back.
    expect((await SseClient.open(`${c.sys.url}/api/v1/stream?channel=odds&api_key=${victim.secret}`)).status).toBe(401);
  });

  it('loses the streams it holds on another replica within a second, the revocation arriving there over the accounts topic', async () => {
    const { victim, owner } = await accountWithTwoKeys();
    await eventually(() => b.replica.keys.lookup(victim.secret) !== undefined, 'the key to reach replica B');
    const { sse, ws } = await openStreams(b.url, victim.secret);

    const at = Date.now();
    expect(await revoke(victim.id, owner)).toBe(200);
    const ended = await ends(sse, ws, at);
    expect(ended.sseLast).toEqual({ event: 'error', data: { code: 'key_revoked', message: 'The API key was revoked' } });
    expect(ended.close).toEqual([4001, 'key_revoked']);
    expect(ended.ms).toBeLessThan(1000);
  });

  // The key itself is refused here, as it was before; the tier change below shows the session is ended too.
  it('finds its MCP session refused from then on with 401', async () => {
    const { victim, owner } = await accountWithTwoKeys();
    const auth = { 'x-api-key': victim.secret };
    const session = await mcpSession(c.sys.url, auth);
    expect(await mcpList(c.sys.url, auth, session)).toEqual([200, null]);
    expect(await revoke(victim.id, owner)).toBe(200);
    expect(await mcpList(c.sys.url, auth, session)).toEqual([401, 'unauthorized']);
  });
});

describe('a key moved to another tier', () => {
  it('has its streams closed (4001 tier_changed) and its MCP session ended (404 session not found) on every replica', async () => {
    const { victim } = await accountWithTwoKeys();
    await eventually(() => b.replica.keys.lookup(victim.secret) !== undefined, 'the key to reach replica B');
    const auth = { 'x-api-key': victim.secret };
    const here = await openStreams(c.sys.url, victim.secret);
    const there = await openStreams(b.url, victim.secret);
    const session = await mcpSession(c.sys.url, auth);

    const at = Date.now();
    await c.sys.accounts.setTier(victim.id, 'pro');
    for (const { sse, ws } of [here, there]) {
      const ended = await ends(sse, ws, at);
      expect((ended.sseLast as { data: { code: string } }).data.code).toBe('tier_changed');
      expect(ended.close).toEqual([4001, 'tier_changed']);
      expect(ended.ms).toBeLessThan(1000);
    }
    // The key still works; the session it opened as hobby does not.
    expect(await mcpList(c.sys.url, auth, session)).toEqual([404, -32001]);
    const again = await SseClient.open(`${c.sys.url}/api/v1/stream?channel=odds&api_key=${victim.secret}`);
    expect(again.status).toBe(200);
    await again.until((f) => f.some((x) => x.event === 'connected'));
    expect((again.frames[0]?.data as { tier: string }).tier).toBe('pro');
    again.close();
  });
});

describe('a rotated key', () => {
  it('loses its streams when its grace period ends', async () => {
    const { victim, owner } = await accountWithTwoKeys();
    const { sse, ws } = await openStreams(c.sys.url, victim.secret);
    // One hour of grace, as a client sets it; the test moves the key's end to now instead of waiting.
    const rotated = await fetch(`${c.sys.url}/api/v1/account/keys/${victim.id}/rotate`, {
      method: 'POST',
      headers: { 'x-api-key': owner, 'content-type': 'application/json' },
      body: JSON.stringify({ gracePeriodHours: 1 }),
    });
    expect(rotated.status).toBe(200);
    expect(sse.ended).toBe(false);
    const graced = c.sys.keys.key(victim.id);
    if (!graced) throw new Error('no key');
    const at = Date.now();
    c.sys.keys.apply({ kind: 'key', key: { ...graced, expiresAt: at + 300, version: graced.version + 1 } });
    const ended = await ends(sse, ws, at);
    expect((ended.sseLast as { data: { code: string } }).data.code).toBe('key_expired');
    expect(ended.close).toEqual([4001, 'key_expired']);
    // Ended by the clock, not by a change: at the end of grace, within the sweep's quarter second.
    expect(ended.ms).toBeGreaterThanOrEqual(300);
    expect(ended.ms).toBeLessThan(1000);
  });
});
