import type { Logger } from 'pino';
import { TOPICS, TOPIC_CONFIGS, isClosedStatus, isRawFutures, isRawSplits } from '../schemas/index.js';
import type { CanonicalEvent, GameState, LeagueDef, OddsChange, OddsTick, Opportunity, TeamDef, TopicName } from '../schemas/index.js';
import { partitionFor } from './bus/index.js';
import type { Bus, BusRecord, OutgoingRecord, ReadScope, RecordBatch } from './bus/index.js';
import type { Clock } from './clock.js';
import { ClosingProcessor, closingRow, entryRow, gameStateRow, gradeRow, storedClosingLines, storedEntries } from './closing/index.js';
import type { ClosingInput } from './closing/index.js';
import { FuturesNormalizer, FuturesProcessor, futuresEvRow, futuresLatestRow, futuresTickRows } from './futures/index.js';
import { Normalizer } from './normalize/index.js';
import type { UnmatchedReason } from './normalize/index.js';
import { OpportunityProcessor, opportunityRecords, resolveOptions } from './opportunities/index.js';
import type { OpportunityInput, OpportunityOptions } from './opportunities/index.js';
import { PerPartition, adoptDetections } from './partition-state.js';
import { startStage } from './runner.js';
import type { Stage } from './runner.js';
import { SnapshotProcessor } from './snapshot/index.js';
import { SplitsProcessor, splitsRows } from './splits/index.js';
import { TableSink, eventRow, latestRow, opportunityRow, tickRow } from './sinks/index.js';
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
 * ticks + events), snapshot (ticks + events -> changelog), opportunities (changelog + events ->
 * opportunities), closing (changelog, events, opportunities, game states -> closes and grades),
 * and the table sinks. Each stage is one consumer group, over one topic or several
 * co-partitioned ones, so on Kafka each scales with its partitions and one process owns all of
 * an event's inputs; stateful stages rebuild the state of partitions as they are assigned.
 */
export function startPipeline(options: PipelineOptions): Pipeline {
  const { bus, store, clock, logger } = options;
  const producer = bus.producer();
  const normalizer = new Normalizer(options.catalog);
  // Processors of event-partitioned topics: one instance per owned partition (see PerPartition).
  const snapshots = new PerPartition(() => new SnapshotProcessor());
  const sinkBatch = { minBatchSize: options.sinkBatchRows ?? 20_000, maxWaitMs: options.sinkMaxWaitMs ?? 1000, maxBatchSize: 100_000 };
  const sinkOptions = options.sinkRetries === undefined ? {} : { retries: options.sinkRetries };
  const ticksSink = new TableSink(store, 'odds_ticks', logger, sinkOptions);
  const latestSink = new TableSink(store, 'odds_latest', logger, sinkOptions);
  const eventsSink = new TableSink(store, 'events', logger, sinkOptions);
  const opportunities = new PerPartition(() => new OpportunityProcessor(options.opportunities));
  const opportunitiesSink = new TableSink(store, 'opportunities', logger, sinkOptions);
  // Splits ride the feed's topic, so they are joined in the normalizer stage, in feed order.
  const splits = new SplitsProcessor();
  const splitsHistorySink = new TableSink(store, 'splits_history', logger, sinkOptions);
  const splitsLatestSink = new TableSink(store, 'splits_latest', logger, sinkOptions);
  let splitsSnapshots = 0;
  const closings = new PerPartition(() => new ClosingProcessor(options.opportunities));
  const retainAfterStartMs = resolveOptions(options.opportunities).retainAfterStartMs;
  const closingSink = new TableSink(store, 'closing_odds', logger, sinkOptions);
  const gradesSink = new TableSink(store, 'clv_grades', logger, sinkOptions);
  const entriesSink = new TableSink(store, 'clv_entries', logger, sinkOptions);
  const gameStateSink = new TableSink(store, 'game_state', logger, sinkOptions);
  // Futures: boards normalized beside the ticks, one processor for fair lines and +EV.
  const futuresNormalizer = new FuturesNormalizer(options.catalog);
  const references = resolveOptions(options.opportunities);
  const futures = new FuturesProcessor({
    referenceBooks: references.referenceBooks,
    fallbackReferenceBooks: references.fallbackReferenceBooks,
  });
  const futuresTicksSink = new TableSink(store, 'futures_odds_ticks', logger, sinkOptions);
  const futuresLatestSink = new TableSink(store, 'futures_odds_latest', logger, sinkOptions);
  const futuresEvSink = new TableSink(store, 'futures_ev', logger, sinkOptions);
  // Versions of replaced closing and grade rows: grow across restarts (wall time) and within one.
  let version = Date.now() * 1000;
  const runClosing = async (partition: number, inputs: ClosingInput[]): Promise<void> => {
    if (inputs.length === 0) return;
    const out = closings.of(partition).handleBatch(inputs, clock.now());
    // Entries first: a grade never exists in the store without what it grades.
    await entriesSink.write(out.entries.map(entryRow));
    await closingSink.write(out.closing.map((c) => closingRow(c, ++version)));
    await gradesSink.write(out.grades.map((g) => gradeRow(g, ++version)));
  };
  // The leagues this process normalizes: those of the raw partitions (odds and game state, both
  // partitioned by league) its normalizer stages own.
  const leagueOwners = { ticks: new Set<number>(), gameState: new Set<number>() };
  const rawPartitions = TOPIC_CONFIGS[TOPICS.rawTicks].partitions;
  const normalizesLeague = (league: string): boolean => {
    const p = partitionFor(league, rawPartitions);
    return leagueOwners.ticks.has(p) || leagueOwners.gameState.has(p);
  };
  // Odds-only sources never say a game ended: live events are closed on a schedule, checked once a minute.
  let lastLifecycleSweep = Number.NEGATIVE_INFINITY;
  let unmatchedSeen = 0;

  const stages: Stage[] = [];
  let restores = 0;
  const firstAssignment = new Map(['normalizer', 'snapshot', 'opportunities', 'closing'].map((name) => [name, deferred()]));
  /** Runs a stage's restore, counted in lag() meanwhile; the stage's first one makes it ready. */
  const restoring = async (stage: string, restore: () => Promise<void>): Promise<void> => {
    restores++;
    try {
      await restore();
      firstAssignment.get(stage)?.resolve();
    } finally {
      restores--;
    }
  };
  const startStages = (): Stage[] => [
    // Event matching needs every event of the leagues this process normalizes, whoever created
    // them: rebuilt from the events changelog at every assignment (a survivor taking over a
    // league learns the events the lost process created); the events of leagues it no longer
    // normalizes are dropped at a revoke.
    startStage(
      bus,
      'normalizer',
      {
        groupId: 'normalizer',
        topic: TOPICS.rawTicks,
        fromBeginning: true,
        onAssign: (partitions) =>
          restoring('normalizer', async () => {
            for (const p of partitions) leagueOwners.ticks.add(p);
            await bus.readToEnd(TOPICS.events, (records) => {
              for (const r of records) if (r.value && normalizesLeague(r.value.league)) normalizer.restore(r.value);
            });
          }),
        onRevoke: (partitions) => {
          for (const p of partitions) leagueOwners.ticks.delete(p);
          normalizer.forgetLeagues(normalizesLeague);
        },
      },
      async (records) => {
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
              {
                reason: result.unmatched,
                book: raw.book,
                league: raw.league,
                home: raw.homeTeam,
                away: raw.awayTeam,
                outcome: raw.outcome,
                unmatchedSoFar: unmatchedSeen,
              },
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
      },
      logger,
      options.onFailure,
    ),

    // Futures: each market's fair line and +EV from every book's latest board.
    startStage(
      bus,
      'futures',
      { groupId: 'futures', topic: TOPICS.futures, fromBeginning: true },
      async (records) => {
        const step = futures.handle(
          records.flatMap((r) => (r.value ? [r.value] : [])),
          clock.now(),
        );
        if (step.markets.length > 0)
          await producer.send(
            TOPICS.futuresMarkets,
            step.markets.map((m) => ({ key: m.futureId, value: m })),
          );
        await futuresLatestSink.write(step.latest.map(futuresLatestRow));
        await futuresEvSink.write(step.ev.map(futuresEvRow));
      },
      logger,
      options.onFailure,
    ),
    startStage(
      bus,
      'sink:futures_odds_ticks',
      { groupId: 'sink-futures-odds-ticks', topic: TOPICS.futures, fromBeginning: true, ...sinkBatch, minBatchSize: 1000 },
      async (records) => {
        await futuresTicksSink.write(records.flatMap((r) => (r.value ? futuresTickRows(r.value) : [])));
      },
      logger,
      options.onFailure,
    ),

    // Game state from feeds that report it: resolved to canonical events; the status it reports
    // becomes the event's (live, final, postponed, cancelled).
    startStage(
      bus,
      'normalizer:gamestate',
      {
        groupId: 'normalizer-gamestate',
        topic: TOPICS.rawGameState,
        fromBeginning: true,
        // Its events come from the normalizer's restore: the leagues it reads are kept there too.
        onAssign: async (partitions) => {
          for (const p of partitions) leagueOwners.gameState.add(p);
        },
        onRevoke: (partitions) => {
          for (const p of partitions) leagueOwners.gameState.delete(p);
          normalizer.forgetLeagues(normalizesLeague);
        },
      },
      async (records) => {
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
      },
      logger,
      options.onFailure,
    ),

    // The snapshot: ticks in, the changelog out, and a finished, postponed or cancelled event's
    // open rows suspended. One group over both topics (co-partitioned by event id); its state is
    // its own changelog, rebuilt to the end for every partition this process is assigned.
    startStage(
      bus,
      'snapshot',
      {
        groupId: 'snapshot',
        topic: [TOPICS.ticks, TOPICS.events],
        fromBeginning: true,
        onAssign: (partitions) =>
          restoring('snapshot', async () => {
            snapshots.reset(partitions);
            await bus.readToEnd(
              TOPICS.snapshot,
              (records) => {
                for (const r of records) if (r.value) snapshots.of(r.partition).restore(r.value);
              },
              { partitions },
            );
          }),
        onRevoke: (partitions) => snapshots.drop(partitions),
      },
      async (records, batch) => {
        const now = clock.now();
        const snapshot = snapshots.of(batch.partition);
        const changes: OutgoingRecord<typeof TOPICS.snapshot>[] = [];
        for (const record of records) {
          if (record.value === null) continue;
          if (isFrom(batch, TOPICS.events)) {
            const event = record.value as CanonicalEvent;
            if (!isClosedStatus(event.status)) continue;
            for (const change of snapshot.closeEvent(event.id, now))
              changes.push({ key: change.key, partitionKey: change.eventId, value: change });
          } else {
            const change = snapshot.handle(record.value as OddsTick, now);
            if (change) changes.push({ key: change.key, partitionKey: change.eventId, value: change });
          }
        }
        if (changes.length > 0) await producer.send(TOPICS.snapshot, changes);
      },
      logger,
      options.onFailure,
    ),

    // Opportunities: one group over the events and the snapshot changelog, co-partitioned by
    // event id, so one process owns an event's odds and its event record. Its state is rebuilt
    // from both inputs up to where the group resumes; expiries leave as a final version and a
    // tombstone.
    startStage(
      bus,
      'opportunities',
      {
        groupId: 'opportunities',
        topic: [TOPICS.events, TOPICS.snapshot],
        fromBeginning: true,
        onAssign: (partitions, committed) =>
          restoring('opportunities', async () => {
            opportunities.reset(partitions);
            const now = clock.now();
            // The three reads run at once (each is a group join on Kafka); applied in order after.
            const [events, odds, versions] = await Promise.all([
              collect(bus, TOPICS.events, { partitions, before: (p) => committed(TOPICS.events, p) }),
              collect(bus, TOPICS.snapshot, { partitions, before: (p) => committed(TOPICS.snapshot, p) }),
              collect(bus, TOPICS.opportunities, { partitions }),
            ]);
            for (const [partition, inputs] of byPartition(events, (r) => (r.value ? { type: 'event' as const, event: r.value } : null)))
              opportunities.of(partition).handleBatch(inputs, now);
            for (const [partition, inputs] of byPartition(odds, (r) => (r.value ? { type: 'odds' as const, change: r.value } : null)))
              opportunities.of(partition).handleBatch(inputs, now);
            const listed = new Map<string, Opportunity>();
            for (const r of versions) {
              if (r.value) listed.set(r.key, r.value);
              else listed.delete(r.key);
            }
            for (const p of partitions) adoptDetections(opportunities.of(p).active(), listed);
          }),
        onRevoke: (partitions) => opportunities.drop(partitions),
      },
      async (records, batch) => {
        const inputs: OpportunityInput[] = isFrom(batch, TOPICS.events)
          ? records.flatMap((r) => (r.value ? [{ type: 'event' as const, event: r.value as CanonicalEvent }] : []))
          : records.flatMap((r) => (r.value ? [{ type: 'odds' as const, change: r.value as OddsChange }] : []));
        const changes = opportunities.of(batch.partition).handleBatch(inputs, clock.now());
        if (changes.length > 0) await producer.send(TOPICS.opportunities, opportunityRecords(changes));
      },
      logger,
      options.onFailure,
    ),

    // Closing lines and CLV: one group over odds, events, opportunities and game states (all
    // co-partitioned by event id). Restored from the captured closes in the store (so a captured
    // event is never captured again from the live prices that replaced its closing ones), then
    // from its inputs up to where the group resumes.
    startStage(
      bus,
      'closing',
      {
        groupId: 'closing',
        topic: [TOPICS.snapshot, TOPICS.events, TOPICS.opportunities, TOPICS.gameState],
        fromBeginning: true,
        onAssign: (partitions, committed) =>
          restoring('closing', async () => {
            closings.reset(partitions);
            const now = clock.now();
            const owned = new Set(partitions);
            const eventPartitions = TOPIC_CONFIGS[TOPICS.events].partitions;
            for (const c of await storedClosingLines(store, now - retainAfterStartMs)) {
              const partition = partitionFor(c.eventId, eventPartitions);
              if (owned.has(partition)) closings.of(partition).restore([c], now);
            }
            // The +EV opportunities it grades, as detected: an occurrence that expired before kickoff
            // is gone from the compacted changelog, and would otherwise never be graded or settled.
            for (const opportunity of await storedEntries(store, now - retainAfterStartMs)) {
              const partition = partitionFor(opportunity.eventId, eventPartitions);
              if (owned.has(partition)) closings.of(partition).handleBatch([{ type: 'opportunity', opportunity }], now);
            }
            const upTo = (topic: TopicName): ReadScope => ({ partitions, before: (p) => committed(topic, p) });
            const [odds, events, versions, states] = await Promise.all([
              collect(bus, TOPICS.snapshot, upTo(TOPICS.snapshot)),
              collect(bus, TOPICS.events, upTo(TOPICS.events)),
              collect(bus, TOPICS.opportunities, upTo(TOPICS.opportunities)),
              collect(bus, TOPICS.gameState, upTo(TOPICS.gameState)),
            ]);
            const replay = <T extends TopicName>(
              records: readonly BusRecord<T>[],
              input: (value: NonNullable<BusRecord<T>['value']>) => ClosingInput,
            ): void => {
              for (const [partition, inputs] of byPartition(records, (r) => (r.value ? input(r.value) : null)))
                closings.of(partition).handleBatch(inputs, now);
            };
            // Prices before events: a live event replayed first would capture an empty close.
            replay(odds, (change) => ({ type: 'odds', change }));
            replay(events, (event) => ({ type: 'event', event }));
            replay(versions, (opportunity) => ({ type: 'opportunity', opportunity }));
            replay(states, (state) => ({ type: 'gamestate', state }));
          }),
        onRevoke: (partitions) => closings.drop(partitions),
      },
      async (records, batch) => {
        const inputs = records.flatMap((r): ClosingInput[] => {
          if (r.value === null) return [];
          if (isFrom(batch, TOPICS.events)) return [{ type: 'event', event: r.value as CanonicalEvent }];
          if (isFrom(batch, TOPICS.snapshot)) return [{ type: 'odds', change: r.value as OddsChange }];
          if (isFrom(batch, TOPICS.opportunities)) return [{ type: 'opportunity', opportunity: r.value as Opportunity }];
          return [{ type: 'gamestate', state: r.value as GameState }];
        });
        await runClosing(batch.partition, inputs);
      },
      logger,
      options.onFailure,
    ),

    startStage(
      bus,
      'sink:game_state',
      { groupId: 'sink-game-state', topic: TOPICS.gameState, fromBeginning: true, ...sinkBatch, minBatchSize: 1000 },
      async (records) => {
        await gameStateSink.writeRecords(records, (r) => (r.value ? gameStateRow(r.value) : null));
      },
      logger,
      options.onFailure,
    ),

    startStage(
      bus,
      'sink:odds_ticks',
      { groupId: 'sink-odds-ticks', topic: TOPICS.ticks, fromBeginning: true, ...sinkBatch },
      async (records) => {
        const now = clock.now();
        await ticksSink.writeRecords(records, (r) => (r.value ? tickRow(r.value, now) : null));
      },
      logger,
      options.onFailure,
    ),

    startStage(
      bus,
      'sink:odds_latest',
      { groupId: 'sink-odds-latest', topic: TOPICS.snapshot, fromBeginning: true, ...sinkBatch },
      async (records) => {
        await latestSink.writeRecords(records, (r) => (r.value ? latestRow(r.value, r.offset + 1) : null));
      },
      logger,
      options.onFailure,
    ),

    startStage(
      bus,
      'sink:opportunities',
      { groupId: 'sink-opportunities', topic: TOPICS.opportunities, fromBeginning: true, ...sinkBatch, minBatchSize: 1000 },
      async (records) => {
        await opportunitiesSink.writeRecords(records, (r) => (r.value ? opportunityRow(r.value, r.offset + 1) : null));
      },
      logger,
      options.onFailure,
    ),

    // One consumer for both splits tables: the same rows, a few thousand every 5 minutes.
    startStage(
      bus,
      'sink:splits',
      { groupId: 'sink-splits', topic: TOPICS.splits, fromBeginning: true, ...sinkBatch, minBatchSize: 1000 },
      async (records) => {
        const rows = records.flatMap((r) => (r.value ? splitsRows(r.value, clock.now()) : []));
        await splitsHistorySink.write(rows);
        await splitsLatestSink.write(rows);
      },
      logger,
      options.onFailure,
    ),

    startStage(
      bus,
      'sink:events',
      { groupId: 'sink-events', topic: TOPICS.events, fromBeginning: true, ...sinkBatch, minBatchSize: 1000 },
      async (records) => {
        await eventsSink.writeRecords(records, (r) => (r.value ? eventRow(r.value) : null));
      },
      logger,
      options.onFailure,
    ),
  ];

  // State before input: every stateful stage rebuilds the state of the partitions it is assigned
  // (at start and at every rebalance) before their records reach it, so a restart, a second
  // instance or a takeover continues from what clients already saw, not from empty. The
  // pipeline is ready once each of them went through its first assignment.
  const ready = (async () => {
    // Futures state is not partitioned yet: every instance rebuilds the whole futures changelog
    // at start (a second instance keeps markets it does not own; their +EV is recomputed, not served twice).
    await bus.readToEnd(TOPICS.futures, (records) => {
      for (const r of records) if (r.value) futures.restore(r.value);
    });
    stages.push(...startStages());
    await Promise.all([...firstAssignment.values()].map((d) => d.promise));
    logger.info(
      { events: normalizer.eventCount, rows: sum(snapshots.all(), (p) => p.size), opportunities: sum(opportunities.all(), (p) => p.size) },
      'pipeline state restored from the changelogs',
    );
  })();

  return {
    ready,
    stats: () => ({
      normalizer: {
        matched: normalizer.counts.matched,
        unmatched: Object.fromEntries(normalizer.counts.unmatched),
        events: normalizer.eventCount,
      },
      snapshotRows: sum(snapshots.all(), (p) => p.size),
      splits: { events: splits.eventCount, snapshots: splitsSnapshots },
      opportunities: {
        active: sum(opportunities.all(), (p) => p.size),
        created: sum(opportunities.all(), (p) => p.counters.created),
        updated: sum(opportunities.all(), (p) => p.counters.updated),
        expired: sum(opportunities.all(), (p) => p.counters.expired),
        events: sum(opportunities.all(), (p) => p.eventCount),
      },
      closing: {
        captured: sum(closings.all(), (p) => p.counters.captured),
        closingLines: sum(closings.all(), (p) => p.counters.closingLines),
        graded: sum(closings.all(), (p) => p.counters.graded),
        settled: sum(closings.all(), (p) => p.counters.settled),
        events: sum(closings.all(), (p) => p.eventCount),
      },
      futures: {
        ...futures.counters,
        markets: futures.marketCount,
        opportunities: futures.opportunityCount,
        unmatched: Object.fromEntries(futuresNormalizer.counts.unmatched),
      },
      sinks: {
        odds_ticks: ticksSink.counters,
        odds_latest: latestSink.counters,
        events: eventsSink.counters,
        opportunities: opportunitiesSink.counters,
        closing_odds: closingSink.counters,
        clv_grades: gradesSink.counters,
        clv_entries: entriesSink.counters,
        game_state: gameStateSink.counters,
        futures_odds_ticks: futuresTicksSink.counters,
        futures_odds_latest: futuresLatestSink.counters,
        futures_ev: futuresEvSink.counters,
        splits_history: splitsHistorySink.counters,
        splits_latest: splitsLatestSink.counters,
      },
      lag: Object.fromEntries(stages.map((s) => [s.name, s.consumer.lag()])),
      partitions: Object.fromEntries(stages.map((s) => [s.name, s.consumer.assignment()])),
    }),
    lag: () => restores + (stages.length === 0 ? 1 : 0) + stages.reduce((total, s) => total + s.consumer.lag(), 0),
    stop: async () => {
      await ready.catch(() => undefined);
      await Promise.all(stages.map((s) => s.stop()));
    },
  };
}

function sum<P>(items: readonly P[], of: (p: P) => number): number {
  let total = 0;
  for (const p of items) total += of(p);
  return total;
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Whether a batch of a multi-topic stage came from `topic` (its records then carry that topic's values). */
function isFrom<K extends TopicName>(batch: RecordBatch<TopicName>, topic: K): batch is RecordBatch<K> {
  return batch.topic === topic;
}

/** A topic's records within `scope`, read outside any group (a restore). */
async function collect<T extends TopicName>(bus: Bus, topic: T, scope: ReadScope): Promise<BusRecord<T>[]> {
  const out: BusRecord<T>[] = [];
  await bus.readToEnd(
    topic,
    (records) => {
      for (const r of records) out.push(r);
    },
    scope,
  );
  return out;
}

/** Records grouped by partition (in order), each mapped to an input; null inputs are left out. */
function byPartition<T extends TopicName, I>(records: readonly BusRecord<T>[], input: (r: BusRecord<T>) => I | null): Map<number, I[]> {
  const out = new Map<number, I[]>();
  for (const r of records) {
    const i = input(r);
    if (i === null) continue;
    let list = out.get(r.partition);
    if (!list) out.set(r.partition, (list = []));
    list.push(i);
  }
  return out;
}
