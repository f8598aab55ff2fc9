import type { ClosingProcessor } from '../closing/index.js';
import type { FuturesNormalizer, FuturesProcessor } from '../futures/index.js';
import type { Normalizer } from '../normalize/index.js';
import type { OpportunityProcessor } from '../opportunities/index.js';
import type { PerPartition } from '../partition-state.js';
import type { SnapshotProcessor } from '../snapshot/index.js';
import type { SplitsProcessor } from '../splits/index.js';
import type { OlapStore } from '../store/index.js';
import { closingStage } from './closing.js';
import { futuresStage } from './futures.js';
import { gameStateNormalizerStage } from './gamestate-normalizer.js';
import type { LeagueOwnership } from './league-ownership.js';
import { normalizerStage } from './normalizer.js';
import type { LowestAccountRate } from './lowest-rate.js';
import { opportunitiesStage } from './opportunities.js';
import {
  eventsSinkStage,
  futuresTicksSinkStage,
  gameStateSinkStage,
  oddsLatestSinkStage,
  oddsTicksSinkStage,
  opportunitiesSinkStage,
  splitsSinkStage,
} from './sink-stages.js';
import { snapshotStage } from './snapshot.js';
import type { StageContext, StageSpec } from './stage.js';

/** The processors the stages drive: the pipeline's state, which `stats()` reads. */
export interface PipelineProcessors {
  normalizer: Normalizer;
  leagues: LeagueOwnership;
  splits: SplitsProcessor;
  futuresNormalizer: FuturesNormalizer;
  futures: FuturesProcessor;
  // Processors of event-partitioned topics: one instance per owned partition (see PerPartition).
  snapshots: PerPartition<SnapshotProcessor>;
  opportunities: PerPartition<OpportunityProcessor>;
  closings: PerPartition<ClosingProcessor>;
  /** The lowest exchange commission rate of any account, which the opportunity engines also search at. */
  accountRates: LowestAccountRate;
  counters: { splitsSnapshots: number };
}

/**
 * Every stage of the pipeline, in the order they start. Each stage is one consumer group, over
 * one topic or several co-partitioned ones, so on Kafka each scales with its partitions and one
 * process owns all of an event's inputs.
 */
export function pipelineStages(
  ctx: StageContext,
  processors: PipelineProcessors,
  closing: { store: OlapStore; retainAfterStartMs: number },
): StageSpec[] {
  const { normalizer, leagues } = processors;
  return [
    normalizerStage(ctx, processors),
    futuresStage(ctx, processors.futures),
    futuresTicksSinkStage(ctx),
    gameStateNormalizerStage(ctx, { normalizer, leagues }),
    snapshotStage(ctx, processors.snapshots),
    opportunitiesStage(ctx, processors.opportunities, () => processors.accountRates.rate()),
    closingStage(ctx, { closings: processors.closings, ...closing }),
    gameStateSinkStage(ctx),
    oddsTicksSinkStage(ctx),
    oddsLatestSinkStage(ctx),
    opportunitiesSinkStage(ctx),
    splitsSinkStage(ctx),
    eventsSinkStage(ctx),
  ];
}
