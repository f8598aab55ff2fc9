import type { Bus, Consumer, ConsumerOptions } from '../../pipeline/bus/index.js';
import type { TopicName } from '../../schemas/index.js';

/** The error a Kafka consumer given up by its client fails with: the policy's lost connection. */
export function lostTheBrokers(): Error {
  return Object.assign(new Error('write after end'), { name: 'KafkaJSConnectionError' });
}

export interface FailingConsumerOptions {
  /** The group whose first consumer fails; every group's first one when absent. */
  groupId?: string;
  /** What it fails with (`lostTheBrokers()` when absent). */
  error?: Error;
  /** The batch after whose handling it fails (the first when absent). */
  afterBatch?: number;
  /**
   * 'after': the batch's offsets were committed first, as a consumer that failed between batches.
   * 'before': they were not, as a Kafka consumer whose commit never reached the broker.
   */
  commit?: 'after' | 'before';
}

/**
 * A bus whose first consumer of a group fails once it has handled a batch, and stops by itself as
 * the Kafka adapter's does; having left its group, it holds no partition from then on. The
 * consumers made after it are the bus's own.
 */
export function failingFirstConsumer(bus: Bus, options: FailingConsumerOptions = {}): Bus {
  const failed = new Set<string>();
  const { afterBatch = 1, commit = 'after' } = options;
  return {
    producer: () => bus.producer(),
    readToEnd: bus.readToEnd.bind(bus),
    close: () => bus.close(),
    consumer<T extends TopicName>(consumerOptions: ConsumerOptions<T>): Consumer<T> {
      const inner = bus.consumer(consumerOptions);
      const group = consumerOptions.groupId;
      if (failed.has(group) || (options.groupId !== undefined && group !== options.groupId)) return inner;
      failed.add(group);
      const error = options.error ?? lostTheBrokers();
      let fail: (e: Error) => void = () => {};
      let left = false;
      let batches = 0;
      // Failing before the commit is the bus's own failure (its handler threw); after it, ours.
      const done = commit === 'before' ? inner.done : new Promise<void>((_, reject) => (fail = reject));
      done.catch(() => undefined);
      return {
        done,
        stop: () => inner.stop(),
        lag: () => inner.lag(),
        assignment: () => (left ? [] : inner.assignment()),
        run(handler) {
          inner.run(async (batch) => {
            await handler(batch);
            if (++batches !== afterBatch) return;
            left = true;
            if (commit === 'before') throw error;
            fail(error);
            setImmediate(() => void inner.stop());
          });
        },
      };
    },
  };
}
