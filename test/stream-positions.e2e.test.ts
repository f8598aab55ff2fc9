/**
 * An odds stream's frame ids name its place in the log, so a client moved to another API replica
 * (its own board, its own hub and sequence numbers) resumes with Last-Event-ID and gets exactly
 * the rows that changed since: no snapshot, no resync, every row it missed once, and a mirror
 * equal to `/odds` on either replica.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MarketSimulator } from '../pipeline/feeds/simulator/index.js';
import { ManualClock } from '../pipeline/clock.js';
import { ScriptedFeed } from './support/scripted-feed.js';
import { startTestSystem } from './support/system.js';
import type { TestSystem } from './support/system.js';
import { eventually, startBoardReplica } from './support/replicas.js';
import { SseClient } from './support/stream-clients.js';
import type { SseFrame } from './support/stream-clients.js';
import { comparableRow } from './support/comparable-row.js';
import { mirrorDiff, oddsRows, quiet } from './support/odds-mirror.js';

type Row = Record<string, unknown>;

let sys: TestSystem;
let clock: ManualClock;
let feed: ScriptedFeed;
let sim: MarketSimulator;
const key = `sharp_stream_positions_${Date.now()}`;

beforeAll(async () => {
  clock = new ManualClock(Date.UTC(2026, 10, 21, 18, 0, 0));
  sim = new MarketSimulator({ seed: 5, clock, eventsPerLeague: 1, suspensionsPerMinute: 120 });
  feed = new ScriptedFeed(sim.snapshot());
  sys = await startTestSystem(
    { SINK_MAX_WAIT_MS: '5', STREAM_BUFFER_KB: '65536', PUBLIC_BASE_URL: 'http://127.0.0.1:8080' },
    { feed: () => feed, clock },
  );
  await sys.drained(30_000);
  sys.keys.add(key, 'sharp', { requestsPerMinute: 1_000_000 });
});
afterAll(async () => {
  await sys.close();
});

/** A client applying odds frames in order, across connections. */
class Mirror {
  readonly rows = new Map<string, string>();
  /** Rows sent again exactly as the mirror held them. */
  repeats = 0;
  updates = 0;
  snapshots = 0;
  resyncs = 0;
  private seen = 0;

  apply(frames: SseFrame[]): void {
    for (const f of frames.slice(this.seen)) {
      const data = f.data as Row;
      if (f.event === 'connected' && data['resync'] === true) this.resyncs++;
      if (f.event === 'snapshot:complete') this.snapshots++;
      if (f.event === 'snapshot') {
        for (const r of data['odds'] as Row[]) this.rows.set(r['id'] as string, comparableRow(r));
      } else if (f.event === 'odds:update') {
        for (const r of data['odds'] as Row[]) {
          const text = comparableRow(r);
          if (this.rows.get(r['id'] as string) === text) this.repeats++;
          this.rows.set(r['id'] as string, text);
          this.updates++;
        }
      } else if (f.event === 'odds:removed') {
        for (const id of data['ids'] as string[]) this.rows.delete(id);
      }
    }
    this.seen = frames.length;
  }

  /** A new connection: its frames are counted from the first. */
  follow(): void {
    this.seen = 0;
  }
}

const oddsOf = async (base: string): Promise<Map<string, string>> => (await oddsRows(base, key)).rows;

function expectSame(mirror: Mirror, truth: Map<string, string>): void {
  const diff = mirrorDiff(mirror.rows, truth);
  expect(diff).toEqual({ missing: [], extra: [], size: truth.size, expected: truth.size });
}

async function step(n: number, drain = true): Promise<void> {
  for (let i = 0; i < n; i++) {
    clock.advance(500);
    await feed.push(sim.step(clock.now(), 200));
  }
  if (drain) await sys.drained(30_000);
}

const streamPath = '/api/v1/stream/odds';

describe('an odds stream resumed by Last-Event-ID on another replica', () => {
  it('gets exactly the rows that changed while it was away, on a replica that never served it, and back', async () => {
    const b = await startBoardReplica(sys);
    const same = (): boolean => b.positions.now().offsets.flat().join() === sys.positions.now().offsets.flat().join();
    try {
      await eventually(same, 'replica B loaded', 20_000);
      const mirror = new Mirror();
      let client = await SseClient.open(`${sys.url}${streamPath}`, { 'x-api-key': key });
      await client.until((fs) => fs.some((f) => f.event === 'snapshot:complete'));
      await step(3);
      await quiet(client);
      mirror.apply(client.frames);
      expectSame(mirror, await oddsOf(sys.url));
      const plainIds = client.frames.filter((f) => f.id !== undefined && /^\d+$/.test(f.id));
      expect(plainIds.map((f) => f.event)).toEqual([]);

      const moves = [b.url, sys.url, b.url];
      for (const [i, to] of moves.entries()) {
        const lastId = client.lastId as string;
        client.close();
        // Changes the client misses: the first move after a quiet stream, the others cut mid-flow.
        await step(3, i === 0);
        await eventually(same, 'replicas in step');
        mirror.follow();
        client = await SseClient.open(`${to}${streamPath}`, { 'x-api-key': key, 'last-event-id': lastId });
        await client.until((fs) => fs.some((f) => f.event === 'connected'));
        const connected = client.frames.find((f) => f.event === 'connected')?.data as Row;
        expect({ resumed: connected['resumed'], resync: connected['resync'] }).toEqual({ resumed: true, resync: false });
        await step(2, i !== 0);
        if (i === 0) await sys.drained(30_000);
        await eventually(same, 'replicas in step');
        await quiet(client);
        mirror.apply(client.frames);
        expectSame(mirror, await oddsOf(sys.url));
        expectSame(mirror, await oddsOf(b.url));
      }
      client.close();
      expect({ snapshots: mirror.snapshots, resyncs: mirror.resyncs }).toEqual({ snapshots: 1, resyncs: 0 });
      expect(mirror.updates).toBeGreaterThan(300);
      // A row comes again unchanged only when the move cut a flush in two.
      expect(mirror.repeats).toBeLessThan(mirror.updates / 10);
    } finally {
      await b.close();
    }
  }, 120_000);

  it('sends a fresh snapshot, marked resync, for a position of another log or an id it cannot read', async () => {
    const client = await SseClient.open(`${sys.url}${streamPath}`, { 'x-api-key': key, 'last-event-id': '12.run.not-a-position' });
    await client.until((fs) => fs.some((f) => f.event === 'snapshot:complete'));
    const connected = client.frames.find((f) => f.event === 'connected')?.data as Row;
    expect({ resumed: connected['resumed'], resync: connected['resync'] }).toEqual({ resumed: false, resync: true });
    client.close();
  }, 30_000);
});
