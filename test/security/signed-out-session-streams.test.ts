/**
 * Attack: sign out in the browser (or have the session taken over) and keep the streams it opened.
 *
 * What went wrong: DELETE /api/v1/session forgot the cookie's session, so the next REST request
 * with the cookie answered 401, but an SSE stream and a WebSocket opened with that cookie kept
 * streaming until the client hung up.
 *
 * Now what a cookie opens holds the browser session as well as the key, and sign-out ends it on
 * the replica that holds the session (sessions live in its memory; balancers route them sticky).
 * What the same key opened by presenting itself is not the session's and stays open.
 */
import { describe, expect, it } from 'vitest';
import { conformanceForFile } from '../support/fixture.js';
import type { Conformance } from '../support/fixture.js';
import { eventually, mcpList, mcpSession } from '../support/replicas.js';
import { SseClient, WsClient } from '../support/stream-clients.js';

let c: Conformance;
let origin: string;

async function signIn(key: string): Promise<string> {
  const res = await fetch(`${c.sys.url}/api/v1/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ api_key: key }),
  });
  expect(res.status).toBe(200);
  return (res.headers.get('set-cookie') ?? '').split(';')[0] as string;
}

conformanceForFile((started) => {
  c = started;
  origin = c.sys.url;
});

describe('sign-out', () => {
  it("ends the SSE stream, the WebSocket and the MCP session opened with the cookie, and leaves the key's own stream alone", async () => {
    const key = c.newKey('pro', 100_000);
    const cookie = await signIn(key);
    const sse = await SseClient.open(`${c.sys.url}/api/v1/stream?channel=odds`, { cookie });
    expect(sse.status).toBe(200);
    await sse.until((f) => f.some((x) => x.event === 'snapshot:complete'));
    const ws = await WsClient.open(`${c.sys.url.replace(/^http/, 'ws')}/api/v1/ws?channels=odds`, { cookie, origin });
    await ws.until((m) => m.some((x) => x.type === 'snapshot:complete'));
    const session = await mcpSession(c.sys.url, { cookie, origin });
    expect(await mcpList(c.sys.url, { cookie, origin }, session)).toEqual([200, null]);
    // The same key, presented by the client: not the browser session's.
    const own = await WsClient.open(`${c.sys.url.replace(/^http/, 'ws')}/api/v1/ws?channels=odds&api_key=${key}`);
    await own.until((m) => m.some((x) => x.type === 'snapshot:complete'));

    const at = Date.now();
    const out = await fetch(`${c.sys.url}/api/v1/session`, { method: 'DELETE', headers: { cookie, origin } });
    expect(out.status).toBe(200);
    await eventually(() => sse.ended && ws.closeCode !== null, "the cookie's streams to end", 3000);
    expect(Date.now() - at).toBeLessThan(1000);
    expect({ event: sse.frames.at(-1)?.event, data: sse.frames.at(-1)?.data }).toEqual({
      event: 'error',
      data: { code: 'signed_out', message: 'The browser session was signed out; sign in again' },
    });
    expect([ws.closeCode, ws.closeReason, ws.messages.at(-1)?.['code']]).toEqual([4001, 'signed_out', 'signed_out']);
    expect(await mcpList(c.sys.url, { cookie, origin }, session)).toEqual([401, 'unauthorized']);

    expect(own.closeCode).toBeNull();
    own.send({ type: 'ping' });
    await own.until((m) => m.some((x) => x.type === 'pong'));
    own.close();
  });

  it('by signing in again replaces the session: what the old cookie opened ends', async () => {
    const key = c.newKey('pro', 100_000);
    const cookie = await signIn(key);
    const sse = await SseClient.open(`${c.sys.url}/api/v1/stream?channel=odds`, { cookie });
    await sse.until((f) => f.some((x) => x.event === 'snapshot:complete'));

    const again = await fetch(`${c.sys.url}/api/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin, cookie },
      body: JSON.stringify({ api_key: key }),
    });
    expect(again.status).toBe(200);
    await eventually(() => sse.ended, "the old session's stream to end", 3000);
    expect((sse.frames.at(-1)?.data as { code: string }).code).toBe('signed_out');
  });
});
