import { AsyncLocalStorage } from 'node:async_hooks';

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
 * Asked through the async context rather than passed along: the stages send and write through
 * the producer and the table sinks they share, from handlers of several partitions at once, and
 * the one output that forgot to pass the batch on would be the one still writing late.
 */
const handling = new AsyncLocalStorage<PartitionHold | null>();

/**
 * A member's hold on one partition, from the assignment that gave it to the rebalance that
 * takes it away (a partition given back later is a new hold). A flag, not a question to the
 * consumer: whatever outlives a handler and kept its async context (a socket first opened in
 * it) keeps this and nothing of the consumer's queues.
 */
export interface PartitionHold {
  lost: boolean;
}

/** Thrown by an output written for a batch whose partition this member no longer owns. */
export class PartitionLostError extends Error {
  constructor() {
    super('the partition of the batch being handled was handed to another member');
    this.name = 'PartitionLostError';
  }
}

/** Runs a batch's handler; every output written meanwhile first asks whether `hold` was lost. */
export function handleWhileOwned<R>(hold: PartitionHold, handler: () => Promise<R>): Promise<R> {
  return handling.run(hold, handler);
}

/**
 * Runs `output` as no batch's: for what a handler writes of the process's own state rather than
 * of the batch's records (the normalizer's sweep of finished events), which the new owner of the
 * batch's partition would not write again, so it must go out even when the batch is dropped.
 */
export function outsideBatch<R>(output: () => Promise<R>): Promise<R> {
  // Outside every batch (the in-process bus never opens one) there is nothing to step out of, and
  // a first `run` would switch on async-context tracking, a cost on every promise, for the process.
  return handling.getStore() === undefined ? output() : handling.run(null, output);
}

/**
 * Throws `PartitionLostError` when called while handling a batch whose partition this member
 * lost since it was handed the batch; does nothing outside a batch or while it still owns it.
 */
export function assertBatchOwned(): void {
  if (handling.getStore()?.lost === true) throw new PartitionLostError();
}
