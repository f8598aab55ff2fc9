/**
 * The embedded runtime with a persistent DATA_DIR keeps its bus log across a restart, so what a
 * client held before it still names a place the restarted process can read: an odds stream resumes
 * by Last-Event-ID with the rows that changed (no snapshot, no resync), a delta poller by cursor,
 * and both mirrors equal `/odds` after the restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MarketSimulator } from '../pipeline/feeds/simulator/index.js';
import { ManualClock } from '../pipeline/clock.js';
import { ScriptedFeed } from './support/scripted-feed.js';
import { startTestSystem } from './support/system.js';
import type { TestSystem } from './support/system.js';
import { SseClient } from './support/stream-clients.js';
import type { SseFrame } from './support/stream-clients.js';
import { comparableRow } from './support/comparable-row.js';
import { mirrorDiff, oddsRows, quiet } from './support/odds-mirror.js';

type Row = Record<string, unknown>;
const dataDir = mkdtempSync(join(tmpdir(), 'odds-restart-'));
const key = `sharp_restart_${Date.now()}`;
const clock = new ManualClock(Date.UTC(2026, 10, 21, 18, 0, 0));
const sim = new MarketSimulator({ seed: 7, clock, eventsPerLeague: 1, suspensionsPerMinute: 120 });
let sys: TestSystem | null = null;
let feed: ScriptedFeed;
/** Rows a delta answer sent again exactly as the poller held them. */
let deltaRepeats = 0;

afterAll(async () => {
  await sys?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(): Promise<TestSystem> {
  feed = new ScriptedFeed(sim.snapshot());
  const s = await startTestSystem(
    { DATA_DIR: dataDir, SINK_MAX_WAIT_MS: '5', STREAM_BUFFER_KB: '65536', PUBLIC_BASE_URL: 'http://127.0.0.1:8080' },
    { feed: () => feed, clock },
  );
  await s.drained(30_000);
  s.keys.add(key, 'sharp', { requestsPerMinute: 1_000_000 });
  return s;
}

async function step(s: TestSystem, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    clock.advance(500);
    await feed.push(sim.step(clock.now(), 200));
  }
  await s.drained(30_000);
}

async function get(s: TestSystem, path: string): Promise<{ status: number; body: Row }> {
  const res = await fetch(`${s.url}${path}`, { headers: { 'x-api-key': key } });
  return { status: res.status, body: (await res.json()) as Row };
}

const oddsOf = (s: TestSystem): ReturnType<typeof oddsRows> => oddsRows(s.url, key);

/** Applies delta answers from `cursor` until has_more is false. */
async function poll(s: TestSystem, rows: Map<string, string>, cursor: string): Promise<string> {
  for (let page = 0; page < 1000; page++) {
    const r = await get(s, `/api/v1/odds/delta?cursor=${encodeURIComponent(cursor)}&limit=5000`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    for (const row of r.body['data'] as Row[]) {
      const text = comparableRow(row);
      if (rows.get(row['id'] as string) === text) deltaRepeats++;
      rows.set(row['id'] as string, text);
    }
    for (const gone of r.body['removed'] as Row[]) rows.delete(gone['id'] as string);
    cursor = (r.body['meta'] as Row)['next_cursor'] as string;
    if (!(r.body['pagination'] as Row)['has_more']) return cursor;
  }
  throw new Error('delta never ended');
}

function applyStream(rows: Map<string, string>, frames: SseFrame[]): { resyncs: number; snapshots: number; repeats: number } {
  let resyncs = 0;
  let snapshots = 0;
  /** Rows sent again exactly as the mirror held them. */
  let repeats = 0;
  for (const f of frames) {
    const data = f.data as Row;
    if (f.event === 'connected' && data['resync'] === true) resyncs++;
    if (f.event === 'snapshot:complete') snapshots++;
    if (f.event === 'snapshot') for (const r of data['odds'] as Row[]) rows.set(r['id'] as string, comparableRow(r));
    if (f.event === 'odds:update') {
      for (const r of data['odds'] as Row[]) {
        const text = comparableRow(r);
        if (rows.get(r['id'] as string) === text) repeats++;
        rows.set(r['id'] as string, text);
      }
    }
    if (f.event === 'odds:removed') for (const id of data['ids'] as string[]) rows.delete(id);
  }
  return { resyncs, snapshots, repeats };
}

function expectSame(mirror: Map<string, string>, truth: Map<string, string>): void {
  expect(mirrorDiff(mirror, truth)).toEqual({ missing: [], extra: [], size: truth.size, expected: truth.size });
}

describe('make run restarted on the same DATA_DIR', () => {
  it('resumes an odds stream by Last-Event-ID and a delta poller by cursor from before the restart', async () => {
    sys = await start();
    const first = await oddsOf(sys);
    const polled = first.rows;
    let cursor = first.cursor;
    const streamed = new Map<string, string>();
    const before = await SseClient.open(`${sys.url}/api/v1/stream/odds`, { 'x-api-key': key });
    await before.until((fs) => fs.some((f) => f.event === 'snapshot:complete'));
    await step(sys, 3);
    cursor = await poll(sys, polled, cursor);
    await quiet(before);
    const lastId = before.lastId as string;
    before.close();
    applyStream(streamed, before.frames);
    expectSame(streamed, (await oddsOf(sys)).rows);

    await sys.close();
    sys = null;
    sys = await start();
    await step(sys, 3);

    const after = await SseClient.open(`${sys.url}/api/v1/stream/odds`, { 'x-api-key': key, 'last-event-id': lastId });
    await after.until((fs) => fs.some((f) => f.event === 'connected'));
    cursor = await poll(sys, polled, cursor);
    await step(sys, 2);
    await poll(sys, polled, cursor);
    await quiet(after);
    after.close();
    const counts = applyStream(streamed, after.frames);
    const connected = after.frames.find((f) => f.event === 'connected')?.data as Row;
    expect({ resumed: connected['resumed'], ...counts }).toEqual({ resumed: true, resyncs: 0, snapshots: 0, repeats: 0 });
    const truth = (await oddsOf(sys)).rows;
    expectSame(streamed, truth);
    expectSame(polled, truth);
    // The first cursor after the restart names offsets the restarted process reads the log from.
    expect(deltaRepeats).toBe(0);
  }, 180_000);
});
