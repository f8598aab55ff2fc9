/**
 * What went wrong: `/account/usage` reported `streams.active` from a lease table in the accounts
 * component that the stream endpoints never took a lease from, so it said 0 however many streams
 * a key held open. It now reads the stream hub's own count of the key's open streams (SSE and
 * WebSocket together), the count that enforces the tier's limit.
 */
import { expect, it } from 'vitest';
import { conformanceForFile } from './support/fixture.js';
import type { Conformance } from './support/fixture.js';
import { SseClient } from './support/stream-clients.js';

let c: Conformance;
conformanceForFile((started) => {
  c = started;
});

async function streams(key: string): Promise<unknown> {
  const r = await c.sys.get('/api/v1/account/usage', key);
  expect(r.status).toBe(200);
  return (r.body['data'] as Record<string, unknown>)['streams'];
}

/** The server sees a closed stream once the socket's close reaches it: re-asks, a bounded number of times. */
async function settledStreams(key: string, expected: unknown): Promise<unknown> {
  let last: unknown;
  for (let i = 0; i < 100; i++) {
    last = await streams(key);
    if (JSON.stringify(last) === JSON.stringify(expected)) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return last;
}

it('counts an open SSE stream of the key in /account/usage, and no longer once it is closed', async () => {
  const key = c.newKey('sharp', 100_000);
  expect(await streams(key)).toEqual({ active: 0, max: 10 });

  const sse = await SseClient.open(`${c.sys.url}/api/v1/stream?channel=odds&api_key=${key}`);
  expect(sse.status).toBe(200);
  await sse.until((frames) => frames.some((f) => f.event === 'connected'));
  expect(await streams(key)).toEqual({ active: 1, max: 10 });
  // Another key of the same tier holds none.
  expect(await streams(c.keys.sharp)).toEqual({ active: 0, max: 10 });

  sse.close();
  expect(await settledStreams(key, { active: 0, max: 10 })).toEqual({ active: 0, max: 10 });
});
