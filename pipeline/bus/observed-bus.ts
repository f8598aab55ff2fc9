import type { Bus, Consumer, ConsumerOptions, RecordBatch } from './bus.js';
import type { TopicName } from '../../schemas/index.js';

/** Told of every batch a consumer of the observed bus handled, by topic, partition and the next offset to read. */
export type DeliveryObserver = (topic: TopicName, partition: number, nextOffset: number) => void;

/**
 * A bus whose consumers report each batch to `observe` right after their handler's synchronous
 * part ran, before anything else gets the event loop. A handler that applies its records without
 * awaiting (the API's views) has then applied exactly the offsets reported, and nothing another
 * consumer applied can slip in between: what lets a replica name the state of its board as a
 * position in the log.
 */
export function observeDeliveries(bus: Bus, observe: DeliveryObserver): Bus {
  return {
    producer: () => bus.producer(),
    readToEnd: bus.readToEnd.bind(bus),
    close: () => bus.close(),
    consumer<T extends TopicName>(options: ConsumerOptions<T>): Consumer<T> {
      const consumer = bus.consumer(options);
      return {
        get done() {
          return consumer.done;
        },
        stop: () => consumer.stop(),
        lag: () => consumer.lag(),
        assignment: () => consumer.assignment(),
        run(handler: (batch: RecordBatch<T>) => Promise<void>): void {
          consumer.run((batch) => {
            const handled = handler(batch);
            const last = batch.records.at(-1);
            if (last) observe(batch.topic, batch.partition, last.offset + 1);
            return handled;
          });
        },
      };
    },
  };
}
