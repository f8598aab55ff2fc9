/**
 * The "done when", on separate processes: a pipeline process and API processes on a
 * Kafka-protocol broker (librdkafka's mock cluster). An odds stream (SSE, by Last-Event-ID) and a
 * delta poller (by cursor) are moved from one API process to the other mid-stream, and then to
 * an API process started after the one they were on was stopped: each mirror equals `/odds` at the
 * end, the stream never gets a snapshot again or a resync, and it gets no row twice.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KafkaBus } from '../pipeline/bus/index.js';
import { exited, spawnEntry, waitForOutput } from './support/entry.js';
import { mockKafkaUnavailable, startMockKafka } from './support/mock-kafka.js';
import type { MockKafka } from './support/mock-kafka.js';
import { OPERATOR_ENV, idle, produce, recordedInput, settledOdds } from './support/pipeline-processes.js';
import { SseClient } from './support/stream-clients.js';
import type { SseFrame } from './support/stream-clients.js';
import { comparableRow } from './support/comparable-row.js';
import { getJson, mirrorDiff, oddsRows, quiet } from './support/odds-mirror.js';

type Row = Record<string, unknown>;
type Entry = ReturnType<typeof spawnEntry>;
const unavailable = mockKafkaUnavailable();
if (unavailable) console.warn(`skipping the Kafka positions test: ${unavailable}`);

const KEY = 'positions-test-key';
const dirs: string[] = [];
function dataDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'odds-kpos-'));
  dirs.push(d);
  return d;
}

async function startProcess(env: Record<string, string>, ready: RegExp): Promise<{ child: Entry; url: string }> {
  const child = spawnEntry({ DATA_DIR: dataDir(), KAFKA_SESSION_TIMEOUT_MS: '6000', LOG_LEVEL: 'warn', ...env });
  const [, url] = await waitForOutput(child, ready, 180_000).catch((e: unknown) => {
    throw new Error(`${e instanceof Error ? e.message : String(e)}; stdout: ${child.output.stdout.slice(-1500)}`);
  });
  return { child, url: url ?? '' };
}

function startApi(brokers: string[], id: string): Promise<{ child: Entry; url: string }> {
  return startProcess(
    {
      ROLE: 'api',
      KAFKA_BROKERS: brokers.join(','),
      API_REPLICA_ID: id,
      API_KEYS: `enterprise:${KEY}`,
      // Replicas behind one balancer share one public address, so their deep links are the same.
      PUBLIC_BASE_URL: 'https://odds.example.test',
      // No load shedding: a loaded test machine's pauses must not become 503s.
      SHED_EVENT_LOOP_DELAY_MS: '0',
    },
    /Odds platform API: (http:\/\/[0-9.:]+)\/api\/v1/,
  );
}

const logTail = (child: Entry): string => `${child.output.stdout.slice(-1500)} ${child.output.stderr.slice(-1500)}`.trim() || '(empty)';

const oddsOf = (base: string): ReturnType<typeof oddsRows> => oddsRows(base, KEY);

class Poller {
  constructor(
    readonly rows: Map<string, string>,
    private cursor: string,
  ) {}

  async poll(base: string): Promise<void> {
    for (let page = 0; page < 1000; page++) {
      const r = { body: await getJson(`${base}/api/v1/odds/delta?cursor=${encodeURIComponent(this.cursor)}&limit=5000`, KEY) };
      for (const row of r.body['data'] as Row[]) this.rows.set(row['id'] as string, comparableRow(row));
      for (const gone of r.body['removed'] as Row[]) this.rows.delete(gone['id'] as string);
      this.cursor = (r.body['meta'] as Row)['next_cursor'] as string;
      if (!(r.body['pagination'] as Row)['has_more']) return;
    }
    throw new Error('delta never ended');
  }
}

class StreamMirror {
  readonly rows = new Map<string, string>();
  snapshots = 0;
  resyncs = 0;
  repeats = 0;
  updates = 0;
  resumed = 0;

  apply(frames: SseFrame[]): void {
    for (const f of frames) {
      const data = f.data as Row;
      if (f.event === 'connected' && data['resync'] === true) this.resyncs++;
      if (f.event === 'connected' && data['resumed'] === true) this.resumed++;
      if (f.event === 'snapshot:complete') this.snapshots++;
      if (f.event === 'snapshot') for (const r of data['odds'] as Row[]) this.rows.set(r['id'] as string, comparableRow(r));
      if (f.event === 'odds:update') {
        for (const r of data['odds'] as Row[]) {
          const text = comparableRow(r);
          if (this.rows.get(r['id'] as string) === text) this.repeats++;
          this.rows.set(r['id'] as string, text);
          this.updates++;
        }
      }
      if (f.event === 'odds:removed') for (const id of data['ids'] as string[]) this.rows.delete(id);
    }
  }
}

function expectSame(mirror: Map<string, string>, truth: Map<string, string>, what: string): void {
  expect(mirrorDiff(mirror, truth), what).toEqual({ missing: [], extra: [], size: truth.size, expected: truth.size });
}

describe.skipIf(unavailable !== null)('clients moved between API processes on Kafka, and across a restart', () => {
  let kafka: MockKafka;
  const children: Entry[] = [];
  beforeAll(async () => {
    kafka = await startMockKafka();
  });
  afterAll(async () => {
    // Those already stopped by the test have exited: waiting for their exit again would never end.
    for (const c of children.filter((child) => child.exitCode === null && child.signalCode === null)) {
      c.kill('SIGTERM');
      await exited(c).catch(() => undefined);
    }
    kafka?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }, 120_000);

  it('an SSE odds stream and a delta poller miss nothing and get no resync', async () => {
    const raw = recordedInput(Date.now() - 60_000);
    const parts = [0, 0.4, 0.6, 0.8, 1].map((f) => Math.floor(raw.length * f));
    const chunk = (i: number): typeof raw => raw.slice(parts[i], parts[i + 1]);
    const bus = new KafkaBus({ brokers: kafka.brokers, sessionTimeoutMs: 6000 });
    try {
      const pipeline = await startProcess(
        { ...OPERATOR_ENV, ROLE: 'pipeline', FEED: 'none', KAFKA_BROKERS: kafka.brokers.join(','), SINK_MAX_WAIT_MS: '100' },
        /Odds platform pipeline: (http:\/\/[0-9.:]+)\/health/,
      );
      children.push(pipeline.child);
      const a = await startApi(kafka.brokers, 'replica-a');
      children.push(a.child);
      const b = await startApi(kafka.brokers, 'replica-b');
      children.push(b.child);
      await produce(bus, chunk(0));
      await idle([pipeline.url]);
      await settledOdds([a.url, b.url], KEY, 180_000);

      const stream = new StreamMirror();
      const first = await oddsOf(a.url);
      const poller = new Poller(first.rows, first.cursor);
      let client = await SseClient.open(`${a.url}/api/v1/stream/odds`, { 'x-api-key': KEY });
      await client.until((fs) => fs.some((f) => f.event === 'snapshot:complete'), 30_000);
      await produce(bus, chunk(1));
      await idle([pipeline.url]);
      await quiet(client, 1000);
      await poller.poll(a.url);

      // Away while a part of the market moves; back on the other API process.
      let lastId = client.lastId as string;
      client.close();
      stream.apply(client.frames);
      await produce(bus, chunk(2));
      await idle([pipeline.url]);
      client = await SseClient.open(`${b.url}/api/v1/stream/odds`, { 'x-api-key': KEY, 'last-event-id': lastId });
      await client.until((fs) => fs.some((f) => f.event === 'connected'), 30_000);
      await poller.poll(b.url);
      await quiet(client, 1000);

      // B stops; the clients come back to an API process started after that.
      lastId = client.lastId as string;
      client.close();
      stream.apply(client.frames);
      b.child.kill('SIGTERM');
      expect((await exited(b.child)).code).toBe(0);
      await produce(bus, chunk(3));
      await idle([pipeline.url]);
      const c = await startApi(kafka.brokers, 'replica-c');
      children.push(c.child);
      // A replica reads every changelog whole before its board is complete: on a loaded CI machine
      // that has taken more than a minute, so the wait is generous and a timeout shows C's log.
      await settledOdds([a.url, c.url], KEY, 180_000).catch((e: unknown) => {
        throw new Error(`${e instanceof Error ? e.message : String(e)}; replica C's log: ${logTail(c.child)}`);
      });
      client = await SseClient.open(`${c.url}/api/v1/stream/odds`, { 'x-api-key': KEY, 'last-event-id': lastId });
      await client.until((fs) => fs.some((f) => f.event === 'connected'), 30_000);
      await poller.poll(c.url);
      await quiet(client, 1000);
      client.close();
      stream.apply(client.frames);

      const truth = (await oddsOf(c.url)).rows;
      expectSame(truth, (await oddsOf(a.url)).rows, `the two API processes (replica C's log: ${logTail(c.child)})`);
      expectSame(stream.rows, truth, 'the stream mirror');
      expectSame(poller.rows, truth, 'the delta mirror');
      expect({ snapshots: stream.snapshots, resyncs: stream.resyncs, resumed: stream.resumed, repeats: stream.repeats }).toEqual({
        snapshots: 1,
        resyncs: 0,
        resumed: 2,
        repeats: 0,
      });
      expect(stream.updates).toBeGreaterThan(100);
    } finally {
      await bus.close();
    }
  }, 600_000);
});
