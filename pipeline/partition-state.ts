import type { Opportunity } from '../schemas/index.js';
import { carry } from './opportunities/index.js';

/**
 * One processor instance per partition a stage owns. Every post-normalizer topic is partitioned
 * by event id, so an event's whole state sits in one instance: a rebalance drops the instances
 * of the partitions this process lost and builds fresh ones, from the changelogs, for those it
 * gained, without the processors knowing anything about partitions.
 */
export class PerPartition<P> {
  private readonly instances = new Map<number, P>();

  constructor(private readonly create: () => P) {}

  /** The instance of a partition (created empty if this process never restored it). */
  of(partition: number): P {
    let p = this.instances.get(partition);
    if (p === undefined) {
      p = this.create();
      this.instances.set(partition, p);
    }
    return p;
  }

  /** Fresh, empty instances for these partitions (before their state is restored). */
  reset(partitions: readonly number[]): void {
    for (const partition of partitions) this.instances.set(partition, this.create());
  }

  drop(partitions: readonly number[]): void {
    for (const partition of partitions) this.instances.delete(partition);
  }

  all(): P[] {
    return [...this.instances.values()];
  }
}

/**
 * After a rebuild, the opportunities the rebuilt state holds that the `opportunities` changelog
 * lists too keep the changelog's first detection time and peak (the rebuilt versions were just
 * "detected" by this process). The rebuilt versions are the processor's own state objects, which
 * `carry` updates in place, as it does for every new version of a live opportunity.
 */
export function adoptDetections(rebuilt: readonly Opportunity[], listed: ReadonlyMap<string, Opportunity>): void {
  for (const o of rebuilt) {
    const before = listed.get(o.id);
    if (before) carry(before, o);
  }
}
