// Separate pipeline and API processes on a real Kafka-protocol broker (librdkafka's mock
// cluster), started through the real entry, with Avro values. Before issue 14, a killed pipeline restarted with
// empty processor state while Kafka's offsets persisted (suspensions of rows it no longer knew
// were dropped, stale prices stayed on the board) and odds_ticks took every replayed batch again.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tierBookScopes } from '../schemas/index.js';
import { SchemaRegistryClient } from '@confluentinc/schemaregistry';
import { AvroCodec, KafkaBus } from '../pipeline/bus/index.js';
import { ROOT, exited, spawnEntry, waitForOutput } from './support/entry.js';
import { mockKafkaUnavailable, startMockKafka } from './support/mock-kafka.js';
import type { MockKafka } from './support/mock-kafka.js';
import {
  STORED_TICK_COLUMNS,
  changelogOutcome,
  replayedOpportunities,
  storedTickIdentity,
  uninterrupted,
  withoutStaleClocks,
} from './support/uninterrupted.js';
import { OPERATOR_ENV, idle, killMidStream, produce, recordedInput, settledOdds } from './support/pipeline-processes.js';

const unavailable = mockKafkaUnavailable();
if (unavailable) console.warn(`skipping the Kafka process tests: ${unavailable}`);

const T0 = Date.now() - 60_000;
/** The pipeline processes' options (the tiers' book scopes), for the records they are compared with. */
const OPPORTUNITY_OPTIONS = { bookScopes: tierBookScopes() };
const dirs: string[] = [];
function dataDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'odds-kproc-'));
  dirs.push(d);
  return d;
}

function storeTicks(dir: string): string[] {
  const sql = `SELECT ${STORED_TICK_COLUMNS} FROM odds_ticks FINAL`;
  const res = spawnSync(process.execPath, ['--import', 'tsx', 'test/support/chdb-query.ts', join(dir, 'chdb'), sql], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (res.status !== 0) throw new Error(`chdb-query failed: ${res.stderr}`);
  const rows = JSON.parse(res.stdout) as Record<string, unknown>[];
  return rows.map((r) => storedTickIdentity(r));
}

type Entry = ReturnType<typeof spawnEntry>;

/**
 * The active opportunities on the bus, exactly those of one processor per partition that ran
 * through the changelogs as written (`replayedOpportunities`), stale clocks included; and, but for
 * the stale clocks, those of the feed in its own order (`uninterrupted`). A partition meets its
 * leagues' ticks in the normalizer's batches, one raw partition's after another's, not interleaved
 * as the feed sent them, and a record's clock follows that order: compared with the feed's order,
 * 3 to 7 of about 215 records carried another clock in every run, the same three ids among them,
 * read at first as a restored partition's thresholds (issue 36). A restore at any cut publishes
 * the records of a processor that ran through (test/partition-upstream-order-clocks.test.ts).
 */
async function expectSameOpportunities(bus: KafkaBus, actual: Map<string, string>, fed: Map<string, string>): Promise<void> {
  expect(actual).toEqual(await replayedOpportunities(bus, Date.now(), OPPORTUNITY_OPTIONS));
  expect(withoutStaleClocks(actual)).toEqual(withoutStaleClocks(fed));
  const otherClock = [...fed].filter(([id, text]) => actual.has(id) && actual.get(id) !== text).map(([id]) => id);
  console.log(
    `[clocks] ${otherClock.length} of ${fed.size} records on another stale clock than in the feed's order: ${otherClock.join(' ')}`,
  );
}

/**
 * Values are Avro in the Confluent wire format. Every process has its own in-process registry
 * (`mock://`); they register the same schemas in the same order, so schema ids agree.
 */
function avroBus(brokers: string[]): KafkaBus {
  return new KafkaBus({
    brokers,
    sessionTimeoutMs: 6000,
    codec: new AvroCodec({ client: SchemaRegistryClient.newClient({ baseURLs: ['mock://registry'] }) }),
  });
}

async function startPipelineProcess(brokers: string[], dir: string): Promise<{ child: Entry; url: string }> {
  const child = spawnEntry({
    ...OPERATOR_ENV,
    ROLE: 'pipeline',
    FEED: 'none',
    KAFKA_BROKERS: brokers.join(','),
    SCHEMA_REGISTRY_URL: 'mock://registry',
    DATA_DIR: dir,
    SINK_MAX_WAIT_MS: '100',
    KAFKA_SESSION_TIMEOUT_MS: '6000',
    LOG_LEVEL: 'warn',
  });
  const [, url] = await waitForOutput(child, /Odds platform pipeline: (http:\/\/[0-9.:]+)\/health/, 180_000).catch((e: unknown) => {
    // The process logs (pino) on stdout: say why it did not start.
    throw new Error(`${e instanceof Error ? e.message : String(e)}; stdout: ${child.output.stdout.slice(-1500)}`);
  });
  return { child, url: url ?? '' };
}

describe.skipIf(unavailable !== null)('pipeline and API processes on Kafka', () => {
  const raw = recordedInput(T0);
  // The pipeline processes run on the wall clock: what follows the clock is left out of the comparison.
  const expected = uninterrupted(raw, Date.now(), OPPORTUNITY_OPTIONS);
  let kafka: MockKafka;
  beforeAll(async () => {
    kafka = await startMockKafka();
  });
  afterAll(() => {
    kafka?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('kill -9 mid-stream and restart: every tick in ClickHouse exactly once, the board equal to an uninterrupted run, the active opportunities to one over the changelogs', async () => {
    expect(expected.ticks.size).toBeGreaterThan(1000);
    const bus = avroBus(kafka.brokers);
    const dir = dataDir();
    try {
      const first = await startPipelineProcess(kafka.brokers, dir);
      await killMidStream(bus, raw, first, 60_000);

      const second = await startPipelineProcess(kafka.brokers, dir);
      await idle([second.url]);
      second.child.kill('SIGTERM');
      expect((await exited(second.child)).code).toBe(0);

      const stored = storeTicks(dir);
      expect(stored.length).toBe(expected.ticks.size);
      expect(new Set(stored)).toEqual(expected.ticks);
      const onBus = await changelogOutcome(bus);
      expect(onBus.board).toEqual(expected.board);
      expect(expected.opportunities.size).toBeGreaterThan(0);
      await expectSameOpportunities(bus, onBus.opportunities, expected.opportunities);
    } finally {
      await bus.close();
    }
  }, 300_000);

  it('two pipeline processes in one group share the partitions and store every tick once; two API processes serve identical /odds', async () => {
    const second = await startMockKafka();
    const bus = avroBus(second.brokers);
    const [da, db] = [dataDir(), dataDir()];
    const apis: Entry[] = [];
    try {
      const a = await startPipelineProcess(second.brokers, da);
      const b = await startPipelineProcess(second.brokers, db);
      await produce(bus, raw);
      await idle([a.url, b.url]).catch((e: unknown) => {
        throw new Error(
          `${e instanceof Error ? e.message : String(e)}; pipeline a: ${a.child.output.stdout.slice(-1500)} ${a.child.output.stderr.slice(-1500)}; pipeline b: ${b.child.output.stdout.slice(-1500)} ${b.child.output.stderr.slice(-1500)}`,
        );
      });
      for (const p of [a, b]) {
        p.child.kill('SIGTERM');
        expect((await exited(p.child)).code, `the process exited on SIGTERM with: ${p.child.output.stderr.slice(-3000)}`).toBe(0);
      }
      const [ta, tb] = [storeTicks(da), storeTicks(db)];
      // Whichever partitions each process owned (librdkafka's mock cluster moves partitions to a
      // member that joins later only slowly, so the share varies from run to run), together
      // they stored every tick once, and no tick in both stores. A batch a process wrote while
      // its partition was being taken over used to reach the new owner too (its commit was
      // refused during the rebalance): the previous owner now commits it into the next
      // generation, and the new owner waits for that before reading where to resume.
      const overlap = ta.length + tb.length - new Set([...ta, ...tb]).size;
      console.log(`[split] ticks stored by the two processes: ${ta.length} + ${tb.length}, in both: ${overlap}`);
      expect(new Set([...ta, ...tb])).toEqual(expected.ticks);
      expect(ta.length + tb.length).toBe(expected.ticks.size);
      const onBus = await changelogOutcome(bus);
      expect(onBus.board).toEqual(expected.board);
      await expectSameOpportunities(bus, onBus.opportunities, expected.opportunities);
      const urls: string[] = [];
      for (const id of ['replica-a', 'replica-b']) {
        const child = spawnEntry({
          ROLE: 'api',
          KAFKA_BROKERS: second.brokers.join(','),
          SCHEMA_REGISTRY_URL: 'mock://registry',
          DATA_DIR: dataDir(),
          API_REPLICA_ID: id,
          API_KEYS: 'enterprise:replica-test-key',
          // Replicas behind one balancer share one public address, so their deep links are the same.
          PUBLIC_BASE_URL: 'https://odds.example.test',
          KAFKA_SESSION_TIMEOUT_MS: '6000',
          LOG_LEVEL: 'warn',
        });
        apis.push(child);
        const [, url] = await waitForOutput(child, /Odds platform API: (http:\/\/[0-9.:]+)\/api\/v1/);
        urls.push(url ?? '');
      }
      const bodies = await settledOdds(urls, 'replica-test-key', 60_000);
      expect(bodies[0]).toBe(bodies[1]);
      const parsed = JSON.parse(bodies[0] ?? '{}') as { data?: unknown[] };
      expect(parsed.data?.length).toBeGreaterThan(0);
    } finally {
      for (const c of apis) {
        c.kill('SIGTERM');
        await exited(c).catch(() => undefined);
      }
      await bus.close();
      second.stop();
    }
  }, 300_000);
});
