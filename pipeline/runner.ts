import type { Logger } from 'pino';
import type { TopicName } from '../schemas/index.js';
import type { Bus, BusRecord, Consumer, ConsumerOptions, RecordBatch } from './bus/index.js';

export interface Stage {
  readonly name: string;
  readonly consumer: Consumer<TopicName>;
  stop(): Promise<void>;
}

/**
 * Drives one consumer: each batch goes to `handle`, and the offsets are committed only once it
 * resolved (outputs produced, sink acknowledged). A handler that throws (a bug, or a sink that
 * exhausted its retries) stops the stage uncommitted instead of skipping data; `onFailure` lets
 * the runtime take the process down so a supervisor restarts it from the last commit. A stage
 * over several co-partitioned topics gets one batch per topic-partition (`batch.topic`).
 */
export function startStage<T extends TopicName>(
  bus: Bus,
  name: string,
  options: ConsumerOptions<T>,
  handle: (records: readonly BusRecord<T>[], batch: RecordBatch<T>) => Promise<void>,
  logger: Logger,
  onFailure?: (error: unknown) => void,
): Stage {
  const consumer = bus.consumer(options);
  consumer.run(async (batch) => handle(batch.records, batch));
  consumer.done.catch((error: unknown) => {
    logger.fatal({ err: error, stage: name }, 'pipeline stage failed');
    onFailure?.(error);
  });
  return {
    name,
    consumer: consumer as unknown as Consumer<TopicName>,
    stop: () => consumer.stop(),
  };
}
