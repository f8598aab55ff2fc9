/**
 * Attack: multiply an account's limits by holding more keys.
 *
 * What went wrong: the request rate limit and the concurrent-stream cap were counted per key, so
 * every extra key of an account (made by rotation, which left the old key working) came with a
 * fresh rate-limit window and a fresh set of stream slots: a hobby account held 8 SSE streams
 * against its tier's 2.
 *
 * Now both are counted for the account, whichever of its keys is used, and /account/usage reports
 * the account's figures. An Enterprise key's custom limit still applies to the requests it sends,
 * against the account's one window.
 */
import { describe, expect, it } from 'vitest';
import type { TierName } from '../../schemas/index.js';
import { conformanceForFile } from '../support/fixture.js';
import type { Conformance } from '../support/fixture.js';
import { SseClient, WsClient } from '../support/stream-clients.js';

let c: Conformance;
conformanceForFile((started) => {
  c = started;
});

/** Two keys of one account, made the operator's way (the per-tier key cap is for the API's own key creation). */
async function twoKeys(tier: TierName, limits: [number | null, number | null] = [null, null]): Promise<[string, string]> {
  const account = await c.sys.accounts.createAccount(`two ${tier} keys`);
  const a = await c.sys.accounts.createKey(account.id, { tier, name: 'a', requestsPerMinute: limits[0] });
  const b = await c.sys.accounts.createKey(account.id, { tier, name: 'b', requestsPerMinute: limits[1] });
  return [a.secret, b.secret];
}

/** The statuses of `n` requests with a key, in order. */
async function statuses(key: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await c.sys.get('/api/v1/sports', key)).status);
  return out;
}

describe('the request rate limit', () => {
  it("is the account's: two free keys share the tier's 12 requests a minute", async () => {
    const [a, b] = await twoKeys('free');
    expect(await statuses(a, 7)).toEqual([200, 200, 200, 200, 200, 200, 200]);
    expect(await statuses(b, 6)).toEqual([200, 200, 200, 200, 200, 429]);
    const refused = await c.sys.get('/api/v1/sports', a);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-ratelimit-limit')).toBe('12');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect((refused.body['error'] as Record<string, unknown>)['code']).toBe('rate_limited');
  });

  it("admits each request against its own key's custom limit, in the account's one window", async () => {
    const [low, high] = await twoKeys('enterprise', [5, 8]);
    expect(await statuses(low, 6)).toEqual([200, 200, 200, 200, 200, 429]);
    // The account's window holds 5: the key allowed 8 has 3 left, not 8.
    expect(await statuses(high, 4)).toEqual([200, 200, 200, 429]);
  });
});

describe('the concurrent stream cap', () => {
  it("is the account's: two hobby keys share the tier's 2 streams, SSE and WebSocket together; past it the account's oldest stream makes way", async () => {
    const [a, b] = await twoKeys('hobby', [100_000, 100_000]);
    const usage = async (key: string): Promise<unknown> =>
      ((await c.sys.get('/api/v1/account/usage', key)).body['data'] as Record<string, unknown>)['streams'];
    const sse = await SseClient.open(`${c.sys.url}/api/v1/stream?channel=odds&api_key=${a}`);
    expect(sse.status).toBe(200);
    const ws = await WsClient.open(`${c.sys.url.replace(/^http/, 'ws')}/api/v1/ws?channels=odds&api_key=${b}`);
    await ws.until((m) => m.some((x) => x.type === 'connected'));
    expect(await usage(a)).toEqual({ active: 2, max: 2 });
    expect(await usage(b)).toEqual({ active: 2, max: 2 });

    // A third stream, by either key, ends the account's oldest (the SSE one of key a).
    const third = await WsClient.open(`${c.sys.url.replace(/^http/, 'ws')}/api/v1/ws?channels=odds&api_key=${b}`);
    await third.until((m) => m.some((x) => x.type === 'connected'));
    await sse.until((f) => f.some((x) => x.event === 'error'));
    expect(sse.frames[sse.frames.length - 1]).toMatchObject({ event: 'error', data: { code: 'displaced' } });
    expect(await usage(a)).toEqual({ active: 2, max: 2 });
    const fourth = await SseClient.open(`${c.sys.url}/api/v1/stream?channel=odds&api_key=${a}`);
    expect(fourth.status).toBe(200);
    expect(await ws.closed()).toBe(4001);
    expect(ws.messages[ws.messages.length - 1]).toMatchObject({ type: 'error', code: 'displaced' });
    expect(third.closeCode).toBeNull();

    sse.close();
    third.close();
    fourth.close();
  });
});
