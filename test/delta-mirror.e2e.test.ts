/**
 * A client that loads /odds once and then only polls /odds/delta, passing `next_since` back,
 * holds exactly what /odds serves: over a minute of simulated market activity (price moves,
 * suspensions (locked rows, sent as changes with is_active false) and restores, markets taken
 * down, new listings), for a real-time key and for the free tier's delayed
 * board, with polls landing while the pipeline is mid-batch. No gap (the mirror equals /odds at
 * every quiet point) and no double (no response names a row twice, no change arrives twice).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MarketSimulator } from '../pipeline/feeds/simulator/index.js';
import { ManualClock } from '../pipeline/clock.js';
import { ScriptedFeed } from './support/scripted-feed.js';
import { startTestSystem } from './support/system.js';
import type { TestSystem } from './support/system.js';

type Row = Record<string, unknown>;

let sys: TestSystem;
let clock: ManualClock;
let feed: ScriptedFeed;
let sim: MarketSimulator;

beforeAll(async () => {
  clock = new ManualClock(Date.UTC(2026, 10, 21, 18, 0, 0));
  sim = new MarketSimulator({ seed: 7, clock, eventsPerLeague: 2, suspensionsPerMinute: 120 });
  feed = new ScriptedFeed(sim.snapshot());
  sys = await startTestSystem({ SINK_MAX_WAIT_MS: '5' }, { feed: () => feed, clock });
  await sys.drained(30_000);
});
afterAll(async () => {
  await sys.close();
});

/** Field order is the serializer's business: compare rows as sorted-key JSON. */
function canonical(row: Row): string {
  return JSON.stringify(row, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v,
  );
}

class Mirror {
  readonly rows = new Map<string, string>();
  since = '';
  changes = 0;
  removals = 0;
  /** Changes that delivered a suspended (locked) row. */
  locks = 0;
  /** Serialised states delivered per row id, to catch a change delivered twice. */
  private readonly lastDelivered = new Map<string, string>();
  constructor(readonly key: string) {}

  async load(): Promise<void> {
    const all = await snapshot(this.key);
    this.since = all.since;
    for (const [id, row] of all.rows) this.rows.set(id, row);
  }

  async poll(limit: number): Promise<void> {
    for (let page = 0; page < 10_000; page++) {
      const r = await sys.get(`/api/v1/odds/delta?since=${encodeURIComponent(this.since)}&limit=${limit}`, this.key);
      expect(r.status).toBe(200);
      const data = r.body['data'] as Row[];
      const removed = r.body['removed'] as Row[];
      const ids = [...data.map((x) => x['id'] as string), ...removed.map((x) => x['id'] as string)];
      expect(new Set(ids).size).toBe(ids.length);
      for (const row of data) {
        const id = row['id'] as string;
        const text = canonical(row);
        expect(this.lastDelivered.get(id)).not.toBe(text);
        this.lastDelivered.set(id, text);
        this.rows.set(id, text);
        this.changes++;
        if (row['is_active'] === false) this.locks++;
      }
      for (const gone of removed) {
        const id = gone['id'] as string;
        this.lastDelivered.set(id, 'removed');
        this.rows.delete(id);
        this.removals++;
      }
      const next = (r.body['meta'] as Row)['next_since'] as string;
      expect(next >= this.since).toBe(true);
      this.since = next;
      if (!(r.body['pagination'] as Row)['has_more']) return;
    }
    throw new Error('delta never ended');
  }
}

/** The whole of /odds, walked with the cursor. */
async function snapshot(key: string): Promise<{ rows: Map<string, string>; since: string }> {
  const rows = new Map<string, string>();
  let cursor: string | null = null;
  let since = '';
  do {
    const r = await sys.get(`/api/v1/odds?limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, key);
    expect(r.status).toBe(200);
    if (since === '') since = (r.body['meta'] as Row)['next_since'] as string;
    for (const row of r.body['data'] as Row[]) rows.set(row['id'] as string, canonical(row));
    cursor = (r.body['pagination'] as Row)['next_cursor'] as string | null;
  } while (cursor !== null);
  return { rows, since };
}

function expectSame(mirror: Mirror, truth: Map<string, string>): void {
  const missing = [...truth.keys()].filter((id) => mirror.rows.get(id) !== truth.get(id));
  const extra = [...mirror.rows.keys()].filter((id) => !truth.has(id));
  if (process.env['DEBUG_MIRROR'])
    for (const id of missing.slice(0, 2)) process.stdout.write(`\nMIRROR ${mirror.rows.get(id)}\nTRUTH  ${truth.get(id)}\n`);
  expect({ key: mirror.key.slice(0, 5), missing: missing.slice(0, 5), extra: extra.slice(0, 5) }).toEqual({
    key: mirror.key.slice(0, 5),
    missing: [],
    extra: [],
  });
}

describe('polling /odds/delta mirrors /odds', () => {
  it('with no gap and no double over a minute of live changes', async () => {
    const sharp = `sharp_mirror_${Date.now()}`;
    const free = `free_mirror_${Date.now()}`;
    sys.keys.add(sharp, 'sharp', { requestsPerMinute: 1_000_000 });
    sys.keys.add(free, 'free', { requestsPerMinute: 1_000_000 });
    const mirrors = [new Mirror(sharp), new Mirror(free)];
    for (const m of mirrors) await m.load();
    const boardRows = sys.board.rowCount;
    expect(boardRows).toBeGreaterThan(1000);

    let ticks = 0;
    const stepMs = 500;
    for (let step = 1; step <= 120; step++) {
      clock.advance(stepMs);
      const batch = sim.step(clock.now(), 400);
      ticks += batch.length;
      // Not awaited: the polls below race the pipeline working through the batch.
      const pushed = feed.push(batch);
      await mirrors[0]?.poll(step % 3 === 0 ? 50 : 5000);
      await mirrors[1]?.poll(step % 2 === 0 ? 25 : 5000);
      await pushed;
      if (step % 20 === 0) {
        await sys.drained(30_000);
        sys.views.sync();
        for (const m of mirrors) {
          await m.poll(5000);
          expectSame(m, (await snapshot(m.key)).rows);
        }
      }
    }
    expect(ticks).toBeGreaterThan(20_000);
    const [sharpMirror, freeMirror] = mirrors as [Mirror, Mirror];
    expect(sharpMirror.changes).toBeGreaterThan(5_000);
    expect(sharpMirror.removals).toBeGreaterThan(10);
    expect(sharpMirror.locks).toBeGreaterThan(10);
    expect(freeMirror.changes).toBeGreaterThan(100);
  }, 400_000);
});
