/**
 * Outputs of a batch whose partition was handed to another member are not written.
 *
 * At a rebalance the member that lost a partition can still be inside a batch of it (a handler
 * that outlasts the handoff window: a slow store, a loaded machine). The new owner resumes from
 * the group's commit, which is before that batch, and writes the batch's outputs again, then
 * newer ones. Whatever the previous owner writes after that lands after them: a compacted topic
 * (`opportunities`, `odds.snapshot`) ends on the older version, so does a table whose rows the
 * writing process versions by its own clock (`closing_odds`, `clv_grades`), and two separate
 * stores both keep the batch. So every output (a send to the Kafka bus, a table write) first asks
 * whether the batch it is written for still belongs to this member; one that does not throws
 * `PartitionLostError`, and the bus drops the batch uncommitted: the new owner, resuming before
 * it, writes it once. What was sent before the loss went out before the new owner started
 * writing: it waits the handoff window first.
 *
 * The hold is an argument of every output (`Producer.send`, `TableSink.write`), required by their
 * types, and each batch carries its own (`RecordBatch.hold`): a handler cannot write without
 * naming the batch it writes for, and what it writes as no batch's says so (`NO_BATCH`). The hold
 * used to travel in the handler's async context instead, so that no output could forget it; but
 * an active `AsyncLocalStorage` makes every await of the process pay for the tracking (a tight
 * await loop, Node 20: about 0.4 µs an await without one, 1.1 µs with one), and the required
 * argument gives the same guarantee for nothing (docs/performance-pipeline.md, eighth round).
 */

/**
 * A member's hold on one partition, from the assignment that gave it to the rebalance that
 * takes it away (a partition given back later is a new hold). A flag, not a question to the
 * consumer: a write that outlives its handler keeps the hold it was given and nothing of the
 * consumer's queues. Only the bus that handed it out sets it.
 */
export interface PartitionHold {
  readonly lost: boolean;
}

/**
 * What an output written as no batch's names as its hold, never lost: records of the process's
 * own state rather than of a batch's (a feed, an API's writes, the normalizer's sweep of finished
 * events, a re-pricing between batches), which no new owner of a partition writes again, and the
 * batches of a bus that never hands a partition to another member (the in-process bus, a group
 * that never commits or that the process has alone).
 */
export const NO_BATCH: PartitionHold = Object.freeze({ lost: false });

/** Thrown by an output written for a batch whose partition this member no longer owns. */
export class PartitionLostError extends Error {
  constructor() {
    super('the partition of the batch being handled was handed to another member');
    this.name = 'PartitionLostError';
  }
}

/** Throws `PartitionLostError` when `hold` was lost since its batch was handed out; does nothing while it is held. */
export function assertHeld(hold: PartitionHold): void {
  if (hold.lost) throw new PartitionLostError();
}
