// Two pipelines in one set of consumer groups on a Kafka-protocol broker (librdkafka's mock
// cluster). Before: the opportunity processor read events and odds through two groups, so with
// two instances an event's odds and its event record could land on different processes (which
// then found no opportunities for it), and state was rebuilt only at start, so a survivor taking
// over a lost instance's partitions knew nothing of their events and prices.
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAGUES, TEAMS, TOPICS } from '../schemas/index.js';
import type { RawTick } from '../schemas/index.js';
import { KafkaBus, NO_BATCH, partitionFor } from '../pipeline/bus/index.js';
import { ManualClock } from '../pipeline/clock.js';
import { MarketSimulator } from '../pipeline/feeds/simulator/index.js';
import { startPipeline } from '../pipeline/pipeline.js';
import type { Pipeline } from '../pipeline/pipeline.js';
import type { OlapStore, StoreRow } from '../pipeline/store/index.js';
import { mockKafkaUnavailable, startMockKafka } from './support/mock-kafka.js';
import type { MockKafka } from './support/mock-kafka.js';
import { changelogOutcome, uninterrupted } from './support/uninterrupted.js';

const unavailable = mockKafkaUnavailable();
if (unavailable) console.warn(`skipping the rebalance test: ${unavailable}`);

const T0 = Date.UTC(2026, 10, 22, 18);

/** Eight events (one per league) with some minutes of repricing, suspensions included. */
function recordedInput(): RawTick[] {
  const clock = new ManualClock(T0);
  const leagues = LEAGUES.filter((l) => ['nba', 'nhl', 'nfl', 'epl', 'la_liga', 'ncaab', 'ncaaf', 'bundesliga'].includes(l.id));
  const sim = new MarketSimulator({ seed: 23, clock, eventsPerLeague: 1, suspensionsPerMinute: 120, catalog: { leagues } });
  const raw = sim.snapshot();
  for (let i = 1; i <= 6; i++) raw.push(...sim.step(T0 + i * 4000, 120));
  return raw;
}

/** The sinks are not under test here: a store that takes every insert and has nothing stored. */
class NullStore implements OlapStore {
  readonly kind = 'clickhouse' as const;
  async exec(): Promise<void> {}
  async insert(_table: string, _rows: readonly StoreRow[]): Promise<void> {}
  async query<T extends StoreRow>(): Promise<T[]> {
    return [];
  }
  async close(): Promise<void> {}
}

async function produce(bus: KafkaBus, raw: readonly RawTick[]): Promise<void> {
  for (let i = 0; i < raw.length; i += 250) {
    await bus.producer().send(
      TOPICS.rawTicks,
      raw.slice(i, i + 250).map((t) => ({ key: `${t.book}:${t.bookEventId}`, partitionKey: t.league, value: t })),
      NO_BATCH,
    );
  }
}

async function until(cond: () => boolean, what: string, ms = 120_000): Promise<void> {
  const end = Date.now() + ms;
  let calm = 0;
  // A condition on lag must hold on several polls in a row (lag is refreshed every 500 ms).
  while (calm < 4) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    calm = cond() ? calm + 1 : 0;
    await new Promise((r) => setTimeout(r, 300));
  }
}

describe.skipIf(unavailable !== null)('two pipelines sharing the partitions', () => {
  let kafka: MockKafka;
  beforeAll(async () => {
    kafka = await startMockKafka();
  });
  afterAll(() => kafka?.stop());

  it("own whole events (odds and event record at one instance); a survivor rebuilds a lost instance's partitions and ends equal to an uninterrupted run", async () => {
    const raw = recordedInput();
    const expected = uninterrupted(raw, T0);
    expect(expected.events.size).toBeGreaterThanOrEqual(6);
    expect(expected.opportunities.size).toBeGreaterThan(0);
    const logger = pino({ level: 'silent' });
    const start = (): { bus: KafkaBus; pipeline: Pipeline } => {
      const bus = new KafkaBus({ brokers: kafka.brokers, sessionTimeoutMs: 6000, lagRefreshMs: 200 });
      const pipeline = startPipeline({
        bus,
        store: new NullStore(),
        clock: new ManualClock(T0),
        logger,
        catalog: { teams: TEAMS, leagues: LEAGUES },
        sinkMaxWaitMs: 100,
      });
      return { bus, pipeline };
    };
    const a = start();
    const b = start();
    const reader = new KafkaBus({ brokers: kafka.brokers, sessionTimeoutMs: 6000 });
    try {
      await Promise.all([a.pipeline.ready, b.pipeline.ready]);
      const owned = (p: Pipeline): number[] => p.stats().partitions['opportunities'] ?? [];
      await until(
        () => owned(a.pipeline).length > 0 && owned(b.pipeline).length > 0 && owned(a.pipeline).length + owned(b.pipeline).length === 4,
        'the opportunity partitions to be split',
      );

      const half = Math.floor(raw.length / 2);
      await produce(reader, raw.slice(0, half));
      await until(() => a.pipeline.lag() === 0 && b.pipeline.lag() === 0, 'both pipelines to catch up');
      // Every event at exactly one instance: its owner by partition, and nowhere else.
      const [ownedA, ownedB] = [new Set(owned(a.pipeline)), new Set(owned(b.pipeline))];
      expect([...ownedA].some((p) => ownedB.has(p))).toBe(false);
      const seen = uninterrupted(raw.slice(0, half), T0).events;
      const byOwner = {
        a: [...seen].filter((e) => ownedA.has(partitionFor(e, 4))).length,
        b: [...seen].filter((e) => ownedB.has(partitionFor(e, 4))).length,
      };
      expect(byOwner.a + byOwner.b).toBe(seen.size);
      expect(a.pipeline.stats().opportunities.events).toBe(byOwner.a);
      expect(b.pipeline.stats().opportunities.events).toBe(byOwner.b);
      console.log(
        `[rebalance] events owned: a ${byOwner.a}, b ${byOwner.b}; opportunities active: a ${a.pipeline.stats().opportunities.active}, b ${b.pipeline.stats().opportunities.active}`,
      );

      // a is lost mid-stream; b is assigned its partitions and rebuilds them from the changelogs.
      await a.bus.close();
      await produce(reader, raw.slice(half));
      await until(() => owned(b.pipeline).length === 4 && b.pipeline.lag() === 0, 'the survivor to take over and catch up');

      const onBus = await changelogOutcome(reader);
      expect(onBus.board).toEqual(expected.board);
      expect(onBus.opportunities).toEqual(expected.opportunities);
      const stats = b.pipeline.stats();
      expect(stats.snapshotRows).toBe(expected.board.size);
      expect(stats.opportunities.active).toBe(expected.opportunities.size);
      expect(stats.opportunities.events).toBe(expected.events.size);
    } finally {
      await b.pipeline.stop();
      await Promise.all([a.bus.close(), b.bus.close(), reader.close()]);
    }
  }, 300_000);
});
