import type { Logger } from 'pino';
import { randomUUID } from 'node:crypto';
import { TOPICS } from '../schemas/index.js';
import type { LeagueDef, TeamDef } from '../schemas/index.js';
import type { Bus } from './bus/index.js';
import type { Clock } from './clock.js';
import { ClosingProcessor } from './closing/index.js';
import { FuturesNormalizer, FuturesProcessor } from './futures/index.js';
import { Normalizer } from './normalize/index.js';
import type { UnmatchedReason } from './normalize/index.js';
import { OpportunityProcessor, resolveOptions } from './opportunities/index.js';
import type { OpportunityOptions } from './opportunities/index.js';
import { PerPartition } from './partition-state.js';
import { runStageTable, startStage } from './runner.js';
import type { Stage, StageFailureHandler } from './runner.js';
import { SnapshotProcessor } from './snapshot/index.js';
import { SplitsProcessor } from './splits/index.js';
import type { SinkCounters } from './sinks/index.js';
import {
  LeagueOwnership,
  LowestAccountRate,
  openTableSinks,
  pipelineStages,
  releaseTableSinks,
  repriceOpportunities,
  sinkCounters,
} from './stages/index.js';
import type { PipelineProcessors, StageContext } from './stages/index.js';
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
  onFailure?: StageFailureHandler;
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

/**
 * Wires the processors to the bus and the sinks to the store: builds the processors (the
 * pipeline's state), the table of its stages (pipeline/stages) and runs the table (runner.ts).
 * Stages: normalizer (raw ticks -> ticks + events), snapshot (ticks + events -> changelog),
 * opportunities (changelog + events -> opportunities), closing (changelog, events,
 * opportunities, game states -> closes and grades), futures, and the table sinks.
 */
export function startPipeline(options: PipelineOptions): Pipeline {
  const { bus, store, clock, logger } = options;
  const references = resolveOptions(options.opportunities);
  const processors: PipelineProcessors = {
    normalizer: new Normalizer(options.catalog),
    leagues: new LeagueOwnership(),
    splits: new SplitsProcessor(),
    futuresNormalizer: new FuturesNormalizer(options.catalog),
    futures: new FuturesProcessor({
      referenceBooks: references.referenceBooks,
      fallbackReferenceBooks: references.fallbackReferenceBooks,
    }),
    snapshots: new PerPartition(() => new SnapshotProcessor()),
    opportunities: new PerPartition(() => new OpportunityProcessor(options.opportunities)),
    closings: new PerPartition(() => new ClosingProcessor(options.opportunities)),
    accountRates: new LowestAccountRate(),
    counters: { splitsSnapshots: 0 },
  };
  const sinks = openTableSinks(store, logger, options.sinkRetries);
  const context: StageContext = {
    bus,
    producer: bus.producer(),
    clock,
    logger,
    sinks,
    sinkBatching: { minBatchSize: options.sinkBatchRows ?? 20_000, maxWaitMs: options.sinkMaxWaitMs ?? 1000, maxBatchSize: 100_000 },
  };
  const table = pipelineStages(context, processors, { store, retainAfterStartMs: references.retainAfterStartMs });
  const running = runStageTable(bus, table, logger, options.onFailure);
  const accountRates = followAccountRates(
    bus,
    processors.accountRates,
    (rate) => repriceOpportunities(context, processors.opportunities, rate),
    logger,
    options.onFailure,
  );
  const { normalizer, splits, futuresNormalizer, futures, snapshots, opportunities, closings } = processors;

  // The pipeline is ready once every stateful stage went through its first assignment.
  const ready = (async () => {
    await running.ready;
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
      splits: { events: splits.eventCount, snapshots: processors.counters.splitsSnapshots },
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
      sinks: sinkCounters(sinks),
      lag: Object.fromEntries(running.stages().map((s) => [s.name, s.consumer.lag()])),
      partitions: Object.fromEntries(running.stages().map((s) => [s.name, s.consumer.assignment()])),
    }),
    lag: () => running.lag(),
    stop: async () => {
      // A batch or a restore waiting for a store that does not answer would hold the stop for as
      // long as the outage lasts: it gives up, uncommitted, and the next start does it again.
      // Not after `ready`: a first restore may be the one waiting.
      await Promise.all([running.stop(() => releaseTableSinks(sinks)), accountRates.stop()]);
    },
  };
}

/**
 * Follows the `accounts` topic from its start into `rates`, and hands `onChange` each new lowest
 * rate once the batch that changed it is applied. Every pipeline process reads all of it (a group
 * of its own, never committed: the fold is rebuilt at every start), so it needs nothing from the
 * API's processes but the topic they write.
 */
export function followAccountRates(
  bus: Bus,
  rates: LowestAccountRate,
  onChange: (rate: number | null) => Promise<void>,
  logger: Logger,
  onFailure?: StageFailureHandler,
): Stage {
  return startStage(
    bus,
    'follow:account-rates',
    { groupId: `pipeline-account-rates-${randomUUID()}`, topic: TOPICS.accounts, fromBeginning: true, commit: false },
    async (records) => {
      const before = rates.rate();
      for (const r of records) if (r.value) rates.apply(r.value);
      if (rates.rate() !== before) await onChange(rates.rate());
    },
    logger,
    onFailure,
  );
}

function sum<P>(items: readonly P[], of: (p: P) => number): number {
  let total = 0;
  for (const p of items) total += of(p);
  return total;
}
