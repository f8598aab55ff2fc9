/**
 * GET /odds pages reuse their memory once the socket has taken a page (api/contract/odds-fragments.ts,
 * `releasePage`). A client that does not read holds its answers in the server's pending writes;
 * while it does, other clients' pages of the same size must be written elsewhere, and the slow
 * client must get exactly the bytes it would have got alone.
 */
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBoard } from '../bench/board-fixture.js';
import { ManualClock } from '../pipeline/clock.js';
import { openSocket, startBareApp } from './support/raw-http.js';
import type { BareApp } from './support/raw-http.js';

const page = (offset: number): string => `/api/v1/odds?limit=1000&offset=${offset}`;

/** The whole answers received so far on one connection, split by their Content-Length. */
function splitAnswers(bytes: Buffer): { etag: string | undefined; body: Buffer }[] {
  const out: { etag: string | undefined; body: Buffer }[] = [];
  let at = 0;
  while (at < bytes.length) {
    const end = bytes.indexOf('\r\n\r\n', at);
    if (end < 0) break;
    const head = bytes.toString('latin1', at, end).split('\r\n');
    const header = (name: string): string | undefined =>
      head
        .find((l) => l.toLowerCase().startsWith(`${name}:`))
        ?.slice(name.length + 1)
        .trim();
    const length = Number(header('content-length'));
    if (end + 4 + length > bytes.length) break;
    out.push({ etag: header('etag'), body: bytes.subarray(end + 4, end + 4 + length) });
    at = end + 4 + length;
  }
  return out;
}

/** Resolves once `check` holds, looking again after each turn of the event loop. */
async function until(check: () => boolean, what: string, turns = 100_000): Promise<void> {
  for (let i = 0; i < turns; i++) {
    if (check()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`never happened: ${what}`);
}

describe('page memory with a client that does not read', () => {
  let served: BareApp;
  const serverSockets: Socket[] = [];

  beforeAll(async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 21, 18));
    const { board } = buildBoard(30, clock);
    served = await startBareApp({}, { board, clock });
    served.app.server.on('connection', (s: Socket) => serverSockets.push(s));
  });
  afterAll(() => served.close());

  it("gets, once it reads, the bytes it would have got alone, though others' pages were written meanwhile", async () => {
    const slow = await openSocket(served.port);
    slow.pause();
    const asked = [0, 1000, 2000, 3000, 4000, 5000, 6000, 7000];
    slow.write(asked.map((o) => `GET ${page(o)} HTTP/1.1\r\nHost: test\r\nX-API-Key: ${served.key}\r\n\r\n`).join(''));
    const pending = (): boolean => (serverSockets[0]?.writableLength ?? 0) > 0;
    await until(pending, "a write of the slow client's answers waiting on the socket");

    // Pages of the same size (1,000 rows, about 1.3 MB) for a client that reads.
    for (const offset of [8000, 9000, 10000, 11000, 12000, 13000, 14000]) {
      const r = await fetch(`http://127.0.0.1:${served.port}${page(offset)}`, { headers: { 'x-api-key': served.key } });
      expect(r.status).toBe(200);
      expect(((await r.json()) as { data: unknown[] }).data.length).toBe(1000);
    }
    expect(pending()).toBe(true);

    const chunks: Buffer[] = [];
    slow.on('data', (d: Buffer) => chunks.push(d));
    slow.resume();
    await until(() => splitAnswers(Buffer.concat(chunks)).length === asked.length, 'all answers read');
    slow.destroy();

    const answers = splitAnswers(Buffer.concat(chunks));
    for (const [i, offset] of asked.entries()) {
      const alone = await served.app.inject({ method: 'GET', url: page(offset), headers: { 'x-api-key': served.key } });
      const got = answers[i] as { etag: string | undefined; body: Buffer };
      const withoutTime = (b: string): string => b.replace(/"updated_at":"[^"]*"/, '');
      expect(got.etag).toBe(alone.headers['etag']);
      expect(withoutTime(got.body.toString('utf8'))).toBe(withoutTime(alone.body));
    }
  });
});
