/**
 * What went wrong: a server that had just started answered every keyed request with 503
 * overloaded ("eventLoopDelay Infinity") until the event-loop delay monitor took its first
 * sample: before a sample the monitor reports an infinite delay, and shedding took it at face
 * value. A reading that is not a number of milliseconds now admits.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { collect, openSocket, startBareApp } from './support/raw-http.js';
import type { BareApp } from './support/raw-http.js';

let s: BareApp;
beforeAll(async () => {
  s = await startBareApp({ shedEventLoopDelayMs: 5000, shedTurnBudgetMs: 50 });
});
afterAll(async () => {
  await s.close();
});

it('serves the first request of a freshly started server instead of shedding it', async () => {
  const socket = await openSocket(s.port);
  const a = await collect(
    socket,
    () => socket.write(`GET /api/v1/sports HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${s.key}\r\nConnection: close\r\n\r\n`),
    { maxMs: 10_000 },
  );
  expect(a.status, a.body).toBe(200);
});
