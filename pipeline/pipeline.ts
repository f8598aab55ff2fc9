import type { Logger } from 'pino';
import { TOPICS, isClosedStatus, isRawFutures, isRawSplits } from '../schemas/index.js';
import type { LeagueDef, TeamDef } from '../schemas/index.js';
import type { Bus, OutgoingRecord } from './bus/index.js';
import type { Clock } from './clock.js';
import { ClosingProcessor, closingRow, gameStateRow, gradeRow } from './closing/index.js';
import type { ClosingInput } from './closing/index.js';
import { FuturesNormalizer, FuturesProcessor, futuresEvRow, futuresLatestRow, futuresTickRows } from './futures/index.js';
import { Normalizer } from './normalize/index.js';
import type { UnmatchedReason } from './normalize/index.js';
import { OpportunityProcessor, opportunityRecords, opportunityRow, resolveOptions } from './opportunities/index.js';
import type { OpportunityOptions } from './opportunities/index.js';
import { startStage } from './runner.js';
import type { Stage } from './runner.js';
import { SnapshotProcessor } from './snapshot/index.js';
import { SplitsProcessor, splitsRows } from './splits/index.js';
import { TableSink, eventRow, latestRow, tickRow } from './sinks/index.js';
import type { SinkCounters } from './sinks/index.js';
import type { OlapStore } from './store/index.js';

export interface PipelineOptions {
  bus: Bus;
  store: OlapStore;
  clock: Clock;
  logger: Logger;
  catalog: { teams: readonly TeamDef[]; leagues: readonly LeagueDef[] };
  /** Sink batching: insert when this many rows wait, or after `sinkMaxWaitMs`. */
  sinkBatchRows?: number;
  sinkMaxWaitMs?: number;
  /** Attempts after a failed insert before the stage gives up (and `onFailure` is called). */
  sinkRetries?: number;
  /** A stage that cannot continue: the runtime decides what happens to the process. */
  onFailure?: (error: unknown) => void;
  /** Tuning of the opportunity engines (reference books, thresholds). */
  opportunities?: OpportunityOptions;
}

export interface PipelineStats {
  normalizer: { matched: number; unmatched: Partial<Record<UnmatchedReason, number>>; events: number };
  snapshotRows: number;
  splits: { events: number; snapshots: number };
  opportunities: { active: number; created: number; updated: number; expired: number; events: number };
  closing: { captured: number; closingLines: number; graded: number; settled: number; events: number };
  futures: { boards: number; markets: number; opportunities: number; created: number; expired: number; unmatched: Record<string, number> };
  sinks: Record<string, SinkCounters>;
  lag: Record<string, number>;
  /** Partitions each stage owns in this process (several processes share a group's partitions). */
  partitions: Record<string, number[]>;
}

export interface Pipeline {
  /**
   * Resolves once every processor rebuilt its state from the changelogs and its stage consumes:
   * start the feed only then (the in-process bus keeps nothing for groups that do not exist yet).
   */
  readonly ready: Promise<void>;
  stats(): PipelineStats;
  /** Records not yet through every stage: zero when the pipeline has caught up with its input. */
  lag(): number;
  stop(): Promise<void>;
}

const UNMATCHED_LOG_EVERY = 1000;

/**
 * Wires the processors to the bus and the sinks to the store. Stages: normalizer (raw ticks ->
 * ticks + events), snapshot (ticks -> changelog), opportunities (changelog + events ->
 * opportunities), and the table sinks. Each stage is its own
 * consumer group, so on Kafka each scales with its partitions.
 */
export function startPipeline(options: PipelineOptions): Pipeline {
  const { bus, store, clock, logger } = options;
  const producer = bus.producer();
  const normalizer = new Normalizer(options.catalog);
  const snapshot = new SnapshotProcessor();
  const sinkBatch = { minBatchSize: options.sinkBatchRows ?? 20_000, maxWaitMs: options.sinkMaxWaitMs ?? 1000, maxBatchSize: 100_000 };
  const sinkOptions = options.sinkRetries === undefined ? {} : { retries: options.sinkRetries };
  const ticksSink = new TableSink(store, 'odds_ticks', logger, sinkOptions);
  const latestSink = new TableSink(store, 'odds_latest', logger, sinkOptions);
  const eventsSink = new TableSink(store, 'events', logger, sinkOptions);
  const opportunities = new OpportunityProcessor(options.opportunities);
  const opportunitiesSink = new TableSink(store, 'opportunities', logger, sinkOptions);
  // Splits ride the feed's topic, so they are joined in the normalizer stage, in feed order.
  const splits = new SplitsProcessor();
  const splitsHistorySink = new TableSink(store, 'splits_history', logger, sinkOptions);
  const splitsLatestSink = new TableSink(store, 'splits_latest', logger, sinkOptions);
  let splitsSnapshots = 0;
  const closing = new ClosingProcessor(options.opportunities);
  const closingSink = new TableSink(store, 'closing_odds', logger, sinkOptions);
  const gradesSink = new TableSink(store, 'clv_grades', logger, sinkOptions);
  const gameStateSink = new TableSink(store, 'game_state', logger, sinkOptions);
  // Futures: boards normalized beside the ticks, one processor for fair lines and +EV.
  const futuresNormalizer = new FuturesNormalizer(options.catalog);
  const references = resolveOptions(options.opportunities);
  const futures = new FuturesProcessor({ referenceBooks: references.referenceBooks, fallbackReferenceBooks: references.fallbackReferenceBooks });
  const futuresTicksSink = new TableSink(store, 'futures_odds_ticks', logger, sinkOptions);
  const futuresLatestSink = new TableSink(store, 'futures_odds_latest', logger, sinkOptions);
  const futuresEvSink = new TableSink(store, 'futures_ev', logger, sinkOptions);
  // Versions of replaced closing and grade rows: grow across restarts (wall time) and within one.
  let version = Date.now() * 1000;
  const runClosing = async (inputs: ClosingInput[]): Promise<void> => {
    if (inputs.length === 0) return;
    const out = closing.handleBatch(inputs, clock.now());
    await closingSink.write(out.closing.map((c) => closingRow(c, ++version)));
    await gradesSink.write(out.grades.map((g) => gradeRow(g, ++version)));
  };
  // Odds-only sources never say a game ended: live events are closed on a schedule, checked once a minute.
  let lastLifecycleSweep = Number.NEGATIVE_INFINITY;
  let unmatchedSeen = 0;

  const stages: Stage[] = [];
  let restoring = true;
  const startStages = (): Stage[] => [
    startStage(bus, 'normalizer', { groupId: 'normalizer', topic: TOPICS.rawTicks, fromBeginning: true }, async (records) => {
      const now = clock.now();
      const ticks: OutgoingRecord<typeof TOPICS.ticks>[] = [];
      const events: OutgoingRecord<typeof TOPICS.events>[] = [];
      const snapshots: OutgoingRecord<typeof TOPICS.splits>[] = [];
      const boards: OutgoingRecord<typeof TOPICS.futures>[] = [];
      for (const record of records) {
        if (record.value === null) continue;
        if (isRawFutures(record.value)) {
          const quote = futuresNormalizer.handle(record.value).quote;
          if (quote) boards.push({ key: quote.key, partitionKey: quote.futureId, value: quote });
          continue;
        }
        if (isRawSplits(record.value)) {
          const result = normalizer.handleSplits(record.value, now);
          for (const e of result.events) events.push({ key: e.id, value: e });
          if (result.splits && result.event) {
            const snapshot = splits.handle(result.splits, result.event, now);
            snapshots.push({ key: snapshot.key, partitionKey: snapshot.eventId, value: snapshot });
          }
          continue;
        }
        const result = normalizer.handle(record.value, now);
        if (result.tick) {
          ticks.push({ key: result.tick.eventId, value: result.tick });
          splits.observeTick(result.tick);
        }
        for (const e of result.events) events.push({ key: e.id, value: e });
        if (result.unmatched && unmatchedSeen++ % UNMATCHED_LOG_EVERY === 0) {
          const raw = record.value;
          logger.warn(
            { reason: result.unmatched, book: raw.book, league: raw.league, home: raw.homeTeam, away: raw.awayTeam, outcome: raw.outcome, unmatchedSoFar: unmatchedSeen },
            'unmatched raw tick (logged once per 1000)',
          );
        }
      }
      if (now - lastLifecycleSweep >= 60_000) {
        lastLifecycleSweep = now;
        for (const e of normalizer.closeFinishedEvents(now)) events.push({ key: e.id, value: e });
      }
      // Events first: a consumer of ticks may look the event up.
      if (events.length > 0) await producer.send(TOPICS.events, events);
      if (ticks.length > 0) await producer.send(TOPICS.ticks, ticks);
      if (snapshots.length > 0) {
        splitsSnapshots += snapshots.length;
        await producer.send(TOPICS.splits, snapshots);
      }
      if (boards.length > 0) await producer.send(TOPICS.futures, boards);
    }, logger, options.onFailure),

    // Futures: each market's fair line and +EV from every book's latest board.
    startStage(bus, 'futures', { groupId: 'futures', topic: TOPICS.futures, fromBeginning: true }, async (records) => {
      const step = futures.handle(records.flatMap((r) => (r.value ? [r.value] : [])), clock.now());
      if (step.markets.length > 0) await producer.send(TOPICS.futuresMarkets, step.markets.map((m) => ({ key: m.futureId, value: m })));
      await futuresLatestSink.write(step.latest.map(futuresLatestRow));
      await futuresEvSink.write(step.ev.map(futuresEvRow));
    }, logger, options.onFailure),
    startStage(bus, 'sink:futures_odds_ticks', { groupId: 'sink-futures-odds-ticks', topic: TOPICS.futures, fromBeginning: true, ...sinkBatch, minBatchSize: 1000 }, async (records) => {
      await futuresTicksSink.write(records.flatMap((r) => (r.value ? futuresTickRows(r.value) : [])));
    }, logger, options.onFailure),

    // Game state from feeds that report it: resolved to canonical events; the status it reports
    // becomes the event's (live, final, postponed, cancelled).
    startStage(bus, 'normalizer:gamestate', { groupId: 'normalizer-gamestate', topic: TOPICS.rawGameState, fromBeginning: true }, async (records) => {
      const now = clock.now();
      const states: OutgoingRecord<typeof TOPICS.gameState>[] = [];
      const events: OutgoingRecord<typeof TOPICS.events>[] = [];
      for (const record of records) {
        if (record.value === null) continue;
        const result = normalizer.handleGameState(record.value, now);
        for (const e of result.events) events.push({ key: e.id, value: e });
        if (result.state) states.push({ key: result.state.eventId, value: result.state });
      }
      if (events.length > 0) await producer.send(TOPICS.events, events);
      if (states.length > 0) await producer.send(TOPICS.gameState, states);
    }, logger, options.onFailure),

    // A finished, postponed or cancelled event: whatever is still open is suspended.
    startStage(bus, 'snapshot:events', { groupId: 'snapshot-events', topic: TOPICS.events, fromBeginning: true }, async (records) => {
      const now = clock.now();
      const changes: OutgoingRecord<typeof TOPICS.snapshot>[] = [];
      for (const record of records) {
        if (record.value === null || !isClosedStatus(record.value.status)) continue;
        for (const change of snapshot.closeEvent(record.value.id, now)) changes.push({ key: change.key, partitionKey: change.eventId, value: change });
      }
      if (changes.length > 0) await producer.send(TOPICS.snapshot, changes);
    }, logger, options.onFailure),

    startStage(bus, 'snapshot', { groupId: 'snapshot', topic: TOPICS.ticks, fromBeginning: true }, async (records) => {
      const now = clock.now();
      const changes: OutgoingRecord<typeof TOPICS.snapshot>[] = [];
      for (const record of records) {
        if (record.value === null) continue;
        const change = snapshot.handle(record.value, now);
        if (change) changes.push({ key: change.key, partitionKey: change.eventId, value: change });
      }
      if (changes.length > 0) await producer.send(TOPICS.snapshot, changes);
    }, logger, options.onFailure),

    // Opportunities: one processor fed by the snapshot changelog and the events (co-partitioned
    // by event id); expiries leave as a final version and a tombstone.
    startStage(bus, 'opportunities:events', { groupId: 'opportunities-events', topic: TOPICS.events, fromBeginning: true }, async (records) => {
      const now = clock.now();
      const changes = opportunities.handleBatch(records.flatMap((r) => (r.value ? [{ type: 'event' as const, event: r.value }] : [])), now);
      if (changes.length > 0) await producer.send(TOPICS.opportunities, opportunityRecords(changes));
    }, logger, options.onFailure),

    startStage(bus, 'opportunities', { groupId: 'opportunities', topic: TOPICS.snapshot, fromBeginning: true }, async (records) => {
      const now = clock.now();
      const changes = opportunities.handleBatch(records.flatMap((r) => (r.value ? [{ type: 'odds' as const, change: r.value }] : [])), now);
      if (changes.length > 0) await producer.send(TOPICS.opportunities, opportunityRecords(changes));
    }, logger, options.onFailure),

    // Closing lines and CLV: one processor fed by odds, events, opportunities and game states.
    startStage(bus, 'closing:events', { groupId: 'closing-events', topic: TOPICS.events, fromBeginning: true }, async (records) => {
      await runClosing(records.flatMap((r) => (r.value ? [{ type: 'event' as const, event: r.value }] : [])));
    }, logger, options.onFailure),
    startStage(bus, 'closing:odds', { groupId: 'closing-odds', topic: TOPICS.snapshot, fromBeginning: true }, async (records) => {
      await runClosing(records.flatMap((r) => (r.value ? [{ type: 'odds' as const, change: r.value }] : [])));
    }, logger, options.onFailure),
    startStage(bus, 'closing:opportunities', { groupId: 'closing-opportunities', topic: TOPICS.opportunities, fromBeginning: true }, async (records) => {
      await runClosing(records.flatMap((r) => (r.value ? [{ type: 'opportunity' as const, opportunity: r.value }] : [])));
    }, logger, options.onFailure),
    startStage(bus, 'closing:gamestate', { groupId: 'closing-gamestate', topic: TOPICS.gameState, fromBeginning: true }, async (records) => {
      await runClosing(records.flatMap((r) => (r.value ? [{ type: 'gamestate' as const, state: r.value }] : [])));
    }, logger, options.onFailure),

    startStage(bus, 'sink:game_state', { groupId: 'sink-game-state', topic: TOPICS.gameState, fromBeginning: true, ...sinkBatch, minBatchSize: 1000 }, async (records) => {
      await gameStateSink.write(records.flatMap((r) => (r.value ? [gameStateRow(r.value)] : [])));
    }, logger, options.onFailure),

    startStage(bus, 'sink:odds_ticks', { groupId: 'sink-odds-ticks', topic: TOPICS.ticks, fromBeginning: true, ...sinkBatch }, async (records) => {
      const now = clock.now();
      await ticksSink.write(records.flatMap((r) => (r.value ? [tickRow(r.value, now)] : [])));
    }, logger, options.onFailure),

    startStage(bus, 'sink:odds_latest', { groupId: 'sink-odds-latest', topic: TOPICS.snapshot, fromBeginning: true, ...sinkBatch }, async (records) => {
      await latestSink.write(records.flatMap((r) => (r.value ? [latestRow(r.value, r.offset + 1)] : [])));
    }, logger, options.onFailure),

    startStage(bus, 'sink:opportunities', { groupId: 'sink-opportunities', topic: TOPICS.opportunities, fromBeginning: true, ...sinkBatch, minBatchSize: 1000 }, async (records) => {
      await opportunitiesSink.write(records.flatMap((r) => (r.value ? [opportunityRow(r.value, r.offset + 1)] : [])));
    }, logger, options.onFailure),

    // One consumer for both splits tables: the same rows, a few thousand every 5 minutes.
    startStage(bus, 'sink:splits', { groupId: 'sink-splits', topic: TOPICS.splits, fromBeginning: true, ...sinkBatch, minBatchSize: 1000 }, async (records) => {
      const rows = records.flatMap((r) => (r.value ? splitsRows(r.value, clock.now()) : []));
      await splitsHistorySink.write(rows);
      await splitsLatestSink.write(rows);
    }, logger, options.onFailure),

    startStage(bus, 'sink:events', { groupId: 'sink-events', topic: TOPICS.events, fromBeginning: true, ...sinkBatch, minBatchSize: 1000 }, async (records) => {
      await eventsSink.write(records.flatMap((r) => (r.value ? [eventRow(r.value)] : [])));
    }, logger, options.onFailure),
  ];

  // State before input: each processor replays the compacted changelogs to their current end,
  // so a restart (or a second instance) continues from what clients already saw, not from empty.
  // Outputs of the rebuild are dropped: they are on the changelogs already.
  const ready = (async () => {
    await bus.readToEnd(TOPICS.events, (records) => {
      const now = clock.now();
      const events = records.flatMap((r) => (r.value ? [r.value] : []));
      for (const e of events) normalizer.restore(e);
      opportunities.handleBatch(events.map((event) => ({ type: 'event' as const, event })), now);
    });
    await bus.readToEnd(TOPICS.snapshot, (records) => {
      for (const r of records) if (r.value) snapshot.restore(r.value);
      opportunities.handleBatch(records.flatMap((r) => (r.value ? [{ type: 'odds' as const, change: r.value }] : [])), clock.now());
    });
    await bus.readToEnd(TOPICS.futures, (records) => {
      for (const r of records) if (r.value) futures.restore(r.value);
    });
    stages.push(...startStages());
    restoring = false;
    logger.info({ events: normalizer.eventCount, rows: snapshot.size, opportunities: opportunities.size }, 'pipeline state restored from the changelogs');
  })();

  return {
    ready,
    stats: () => ({
      normalizer: {
        matched: normalizer.counts.matched,
        unmatched: Object.fromEntries(normalizer.counts.unmatched),
        events: normalizer.eventCount,
      },
      snapshotRows: snapshot.size,
      splits: { events: splits.eventCount, snapshots: splitsSnapshots },
      opportunities: { active: opportunities.size, ...pick(opportunities.counters), events: opportunities.eventCount },
      closing: { ...closing.counters, events: closing.eventCount },
      futures: { ...futures.counters, markets: futures.marketCount, opportunities: futures.opportunityCount, unmatched: Object.fromEntries(futuresNormalizer.counts.unmatched) },
      sinks: { odds_ticks: ticksSink.counters, odds_latest: latestSink.counters, events: eventsSink.counters, opportunities: opportunitiesSink.counters, closing_odds: closingSink.counters, clv_grades: gradesSink.counters, game_state: gameStateSink.counters, futures_odds_ticks: futuresTicksSink.counters, futures_odds_latest: futuresLatestSink.counters, futures_ev: futuresEvSink.counters, splits_history: splitsHistorySink.counters, splits_latest: splitsLatestSink.counters },
      lag: Object.fromEntries(stages.map((s) => [s.name, s.consumer.lag()])),
      partitions: Object.fromEntries(stages.map((s) => [s.name, s.consumer.assignment()])),
    }),
    lag: () => (restoring ? 1 : 0) + stages.reduce((sum, s) => sum + s.consumer.lag(), 0),
    stop: async () => {
      await ready.catch(() => undefined);
      await Promise.all(stages.map((s) => s.stop()));
    },
  };
}

function pick(c: { created: number; updated: number; expired: number }): { created: number; updated: number; expired: number } {
  return { created: c.created, updated: c.updated, expired: c.expired };
}
