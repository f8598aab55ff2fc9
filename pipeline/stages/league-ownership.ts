import { TOPICS, TOPIC_CONFIGS } from '../../schemas/index.js';
import { partitionFor } from '../bus/index.js';

/**
 * The leagues this process normalizes: those of the raw partitions (odds and game state, both
 * partitioned by league) its two normalizer stages own. The normalizer keeps the events of
 * exactly these leagues; the two stages share it.
 */
export class LeagueOwnership {
  private readonly owned = { ticks: new Set<number>(), gameState: new Set<number>() };
  private readonly rawPartitions = TOPIC_CONFIGS[TOPICS.rawTicks].partitions;

  gain(source: 'ticks' | 'gameState', partitions: readonly number[]): void {
    for (const p of partitions) this.owned[source].add(p);
  }

  lose(source: 'ticks' | 'gameState', partitions: readonly number[]): void {
    for (const p of partitions) this.owned[source].delete(p);
  }

  /** A predicate, so that it can be handed to `Normalizer.forgetLeagues` as it is. */
  readonly normalizes = (league: string): boolean => {
    const p = partitionFor(league, this.rawPartitions);
    return this.owned.ticks.has(p) || this.owned.gameState.has(p);
  };
}
