/**
 * `/odds/delta?cursor=`: a position in the changelogs, so a poller can move between API replicas
 * (each with its own board and its own change-log clock) and to a replica started after the
 * cursor was issued, as a restarted one is, and still hold exactly what /odds serves. Crossing
 * to another replica may send rows of the boundary batch again in their current state (never an
 * older one); it never misses a change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MarketSimulator } from '../pipeline/feeds/simulator/index.js';
import { ManualClock } from '../pipeline/clock.js';
import { encodePosition } from '../api/queries/index.js';
import { ScriptedFeed } from './support/scripted-feed.js';
import { startTestSystem } from './support/system.js';
import type { TestSystem } from './support/system.js';
import { startBoardReplica } from './support/replicas.js';
import { comparableRow } from './support/comparable-row.js';

type Row = Record<string, unknown>;

let sys: TestSystem;
let clock: ManualClock;
let feed: ScriptedFeed;
let sim: MarketSimulator;
const key = `sharp_positions_${Date.now()}`;
const freeKey = `free_positions_${Date.now()}`;

beforeAll(async () => {
  clock = new ManualClock(Date.UTC(2026, 10, 21, 18, 0, 0));
  sim = new MarketSimulator({ seed: 11, clock, eventsPerLeague: 1, suspensionsPerMinute: 120 });
  feed = new ScriptedFeed(sim.snapshot());
  // The replicas' deep links name one public origin, as behind a load balancer.
  sys = await startTestSystem({ SINK_MAX_WAIT_MS: '5', PUBLIC_BASE_URL: 'http://127.0.0.1:8080' }, { feed: () => feed, clock });
  await sys.drained(30_000);
  sys.keys.add(key, 'sharp', { requestsPerMinute: 1_000_000 });
  sys.keys.add(freeKey, 'free', { requestsPerMinute: 1_000_000 });
});
afterAll(async () => {
  await sys.close();
});

async function get(base: string, path: string, apiKey = key): Promise<{ status: number; body: Row }> {
  const res = await fetch(`${base}${path}`, { headers: { 'x-api-key': apiKey } });
  return { status: res.status, body: (await res.json()) as Row };
}

/** Every row of /odds on `base`, by id, and the snapshot's delta cursor. */
async function snapshot(base: string): Promise<{ rows: Map<string, string>; cursor: string }> {
  const rows = new Map<string, string>();
  let page: string | null = null;
  let cursor = '';
  do {
    const r = await get(base, `/api/v1/odds?limit=1000${page ? `&cursor=${encodeURIComponent(page)}` : ''}`);
    expect(r.status).toBe(200);
    if (cursor === '') cursor = (r.body['meta'] as Row)['delta_cursor'] as string;
    for (const row of r.body['data'] as Row[]) rows.set(row['id'] as string, comparableRow(row));
    page = (r.body['pagination'] as Row)['next_cursor'] as string | null;
  } while (page !== null);
  return { rows, cursor };
}

class Mirror {
  rows = new Map<string, string>();
  cursor = '';
  /** Rows delivered again unchanged (allowed only at a move to another replica). */
  repeats = 0;
  changes = 0;

  async poll(base: string, limit: number): Promise<void> {
    for (let page = 0; page < 1000; page++) {
      const r = await get(base, `/api/v1/odds/delta?cursor=${encodeURIComponent(this.cursor)}&limit=${limit}`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      for (const row of r.body['data'] as Row[]) {
        const id = row['id'] as string;
        const text = comparableRow(row);
        if (this.rows.get(id) === text) this.repeats++;
        this.rows.set(id, text);
        this.changes++;
      }
      for (const gone of r.body['removed'] as Row[]) this.rows.delete(gone['id'] as string);
      this.cursor = (r.body['meta'] as Row)['next_cursor'] as string;
      if (!(r.body['pagination'] as Row)['has_more']) return;
    }
    throw new Error('delta never ended');
  }
}

function expectSame(mirror: Mirror, truth: Map<string, string>): void {
  const missing = [...truth.keys()].filter((id) => mirror.rows.get(id) !== truth.get(id));
  const extra = [...mirror.rows.keys()].filter((id) => !truth.has(id));
  if (process.env['DEBUG_MIRROR'])
    for (const id of missing.slice(0, 1)) process.stdout.write(`\nMIRROR ${mirror.rows.get(id)}\nTRUTH  ${truth.get(id)}\n`);
  expect({ missing: missing.slice(0, 5), extra: extra.slice(0, 5) }).toEqual({ missing: [], extra: [] });
}

async function step(n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    clock.advance(500);
    await feed.push(sim.step(clock.now(), 200));
  }
  await sys.drained(30_000);
}

describe('/odds/delta by cursor', () => {
  it('moves a poller between replicas, one of them started after its cursor was issued, with nothing missed', async () => {
    const mirror = new Mirror();
    const first = await snapshot(sys.url);
    mirror.rows = first.rows;
    mirror.cursor = first.cursor;
    await step(3);
    await mirror.poll(sys.url, 5000);
    expectSame(mirror, (await snapshot(sys.url)).rows);

    await step(3);
    // B starts now: its board is rebuilt from the changelogs, its change-log clock is its own.
    const b = await startBoardReplica(sys);
    try {
      await waitFor(() => b.board.rowCount === sys.board.rowCount);
      await mirror.poll(b.url, 50);
      expectSame(mirror, (await snapshot(b.url)).rows);
      const repeatsAtFirstMove = mirror.repeats;
      for (let round = 0; round < 4; round++) {
        await step(2);
        await waitFor(() => b.positions.now().offsets.flat().join() === sys.positions.now().offsets.flat().join());
        await mirror.poll(round % 2 === 0 ? sys.url : b.url, round % 3 === 0 ? 40 : 5000);
        expectSame(mirror, (await snapshot(sys.url)).rows);
      }
      expect(mirror.changes).toBeGreaterThan(300);
      // Repeats come only from batch boundaries at a move, never from staying on one replica.
      expect(mirror.repeats - repeatsAtFirstMove).toBeLessThan(mirror.changes / 2);
    } finally {
      await b.close();
    }
  }, 120_000);

  it('answers a malformed cursor with the error envelope naming cursor, and a foreign or stale one with the resync', async () => {
    const bad = await get(sys.url, '/api/v1/odds/delta?cursor=not-a-cursor');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body['error'])).toContain("'cursor'");
    const both = await get(sys.url, `/api/v1/odds/delta?cursor=x&since=${encodeURIComponent(new Date().toISOString())}`);
    expect(both.status).toBe(400);
    const neither = await get(sys.url, '/api/v1/odds/delta');
    expect(neither.status).toBe(400);
    expect(JSON.stringify(neither.body['error'])).toContain("'since'");

    const offsets = sys.positions.now().offsets;
    const foreign = await get(sys.url, `/api/v1/odds/delta?cursor=${encodePosition({ log: 'another-log', offsets, at: null })}`);
    expect(foreign.status).toBe(410);
    expect((foreign.body['error'] as Row)['code']).toBe('resync_required');
    expect(JSON.stringify(foreign.body['error'])).toContain("'cursor'");
    // Offsets before the change log's floor: the replica no longer knows what changed since.
    const zero = offsets.map((topic) => topic.map(() => 0));
    const fromStart = encodePosition({ log: sys.positions.log, offsets: zero, at: null });
    // A replica whose change window holds 100 changes, fewer than the board's rows it loads.
    const b = await startBoardReplica(sys, { maxChanges: 100, maxAgeMs: 600_000 });
    try {
      await waitFor(() => b.board.rowCount === sys.board.rowCount);
      const stale = await get(b.url, `/api/v1/odds/delta?cursor=${fromStart}`);
      expect(stale.status).toBe(410);
      expect((stale.body['error'] as Row)['code']).toBe('resync_required');
      const now = encodePosition({ ...b.positions.now(), at: null });
      expect((await get(b.url, `/api/v1/odds/delta?cursor=${now}`)).status).toBe(200);
    } finally {
      await b.close();
    }
  }, 60_000);

  it('resumes a free-tier (delayed) cursor only on the replica that issued it', async () => {
    const r = await get(sys.url, '/api/v1/odds?limit=1', freeKey);
    const cursor = (r.body['meta'] as Row)['delta_cursor'] as string;
    expect((await get(sys.url, `/api/v1/odds/delta?cursor=${encodeURIComponent(cursor)}`, freeKey)).status).toBe(200);
    const b = await startBoardReplica(sys);
    try {
      const elsewhere = await get(b.url, `/api/v1/odds/delta?cursor=${encodeURIComponent(cursor)}`, freeKey);
      expect(elsewhere.status).toBe(410);
    } finally {
      await b.close();
    }
  }, 60_000);
});

async function waitFor(pred: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!pred()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
