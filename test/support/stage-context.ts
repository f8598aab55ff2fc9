import { pino } from 'pino';
import { LEAGUES, TEAMS, TOPIC_CONFIGS } from '../../schemas/index.js';
import type { CanonicalEvent, FuturesQuote, OddsChange, OddsTick, Opportunity, SplitsSnapshot, TopicName } from '../../schemas/index.js';
import { MemoryBus, NO_BATCH } from '../../pipeline/bus/index.js';
import type { OutgoingRecord, RecordBatch } from '../../pipeline/bus/index.js';
import { ManualClock } from '../../pipeline/clock.js';
import { MarketSimulator } from '../../pipeline/feeds/simulator/index.js';
import { FuturesNormalizer } from '../../pipeline/futures/index.js';
import { Normalizer } from '../../pipeline/normalize/index.js';
import { OpportunityProcessor } from '../../pipeline/opportunities/index.js';
import { SnapshotProcessor } from '../../pipeline/snapshot/index.js';
import { SplitsProcessor } from '../../pipeline/splits/index.js';
import { openTableSinks } from '../../pipeline/stages/index.js';
import type { StageContext } from '../../pipeline/stages/index.js';
import type { OlapStore, StoreRow } from '../../pipeline/store/index.js';

export interface Sent {
  topic: TopicName;
  records: OutgoingRecord<TopicName>[];
}

export interface StageHarness {
  ctx: StageContext;
  clock: ManualClock;
  /** For restores: what a test produces here is what a stage's restore reads. */
  bus: MemoryBus;
  store: OlapStore;
  /** Every send of the stage, in order. */
  sent: Sent[];
  /** Every insert of the stage's sinks, in order. */
  inserts: { table: string; rows: readonly StoreRow[] }[];
}

/**
 * What a stage is built on, recording what it produces and inserts: a stage's test feeds its
 * handler a batch and reads back the exact records and rows its wiring made of it.
 */
export function stageHarness(now: number, queries: (sql: string) => StoreRow[] = () => []): StageHarness {
  const sent: Sent[] = [];
  const inserts: { table: string; rows: readonly StoreRow[] }[] = [];
  const store: OlapStore = {
    kind: 'chdb',
    exec: async () => undefined,
    insert: async (table, rows) => {
      inserts.push({ table, rows });
    },
    query: async <T extends StoreRow>(sql: string) => queries(sql) as T[],
    close: async () => undefined,
  };
  const logger = pino({ level: 'silent' });
  const clock = new ManualClock(now);
  const bus = new MemoryBus({ now: () => clock.now() });
  const ctx: StageContext = {
    bus,
    producer: {
      send: async (topic, records) => {
        sent.push({ topic, records: [...records] as OutgoingRecord<TopicName>[] });
      },
    },
    clock,
    logger,
    sinks: openTableSinks(store, logger, 0),
    sinkBatching: { minBatchSize: 20_000, maxWaitMs: 1000, maxBatchSize: 100_000 },
  };
  return { ctx, clock, bus, store, sent, inserts };
}

/** A batch as the bus delivers it: `values` at offsets from `offset` of one topic-partition. */
export function batchOf<T extends TopicName>(
  topic: T,
  partition: number,
  values: readonly (RecordBatch<T>['records'][number]['value'] & {})[],
  keyOf: (value: RecordBatch<T>['records'][number]['value'] & {}) => string,
  offset = 0,
): RecordBatch<T> {
  return {
    topic,
    partition,
    records: values.map((value, i) => ({ topic, partition, offset: offset + i, key: keyOf(value), value, timestamp: 0 })),
    hold: NO_BATCH,
  };
}

export interface TopicValuesFixture {
  events: CanonicalEvent[];
  ticks: OddsTick[];
  splits: SplitsSnapshot[];
  futures: FuturesQuote[];
  changes: OddsChange[];
  opportunities: Opportunity[];
}

/**
 * The values of the pipeline's topics for one simulated board (one event per league), made by
 * the processors themselves: inputs for the stages after the normalizer.
 */
export function simulatedTopics(now: number): TopicValuesFixture {
  const catalog = { teams: TEAMS, leagues: LEAGUES };
  const sim = new MarketSimulator({ seed: 3, clock: new ManualClock(now), eventsPerLeague: 1 });
  const normalizer = new Normalizer(catalog);
  const splitsProcessor = new SplitsProcessor();
  const futuresNormalizer = new FuturesNormalizer(catalog);
  const snapshot = new SnapshotProcessor();
  const out: TopicValuesFixture = { events: [], ticks: [], splits: [], futures: [], changes: [], opportunities: [] };
  for (const raw of sim.snapshot()) {
    const result = normalizer.handle(raw, now);
    out.events.push(...result.events);
    if (!result.tick) continue;
    out.ticks.push(result.tick);
    splitsProcessor.observeTick(result.tick);
    const change = snapshot.handle(result.tick, now);
    if (change) out.changes.push(change);
  }
  for (const raw of sim.splits(now)) {
    const result = normalizer.handleSplits(raw, now);
    if (result.splits && result.event) out.splits.push(splitsProcessor.handle(result.splits, result.event, now));
  }
  for (const raw of sim.futures(now)) {
    const quote = futuresNormalizer.handle(raw).quote;
    if (quote) out.futures.push(quote);
  }
  const opportunities = new OpportunityProcessor();
  const found = opportunities.handleBatch(
    [
      ...out.events.map((event) => ({ type: 'event' as const, event })),
      ...out.changes.map((change) => ({ type: 'odds' as const, change })),
    ],
    now,
  );
  out.opportunities = found.map((c) => c.opportunity);
  return out;
}

/** Every partition of a topic: what one process owns alone. */
export function partitionsOf(topic: TopicName): number[] {
  return [...Array(TOPIC_CONFIGS[topic].partitions).keys()];
}
