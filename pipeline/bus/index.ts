export type * from './bus.js';
export { topicsOf } from './bus.js';
export { MemoryBus } from './memory-bus.js';
export type {
  AppendListener,
  ForgetRemovals,
  GroupCommit,
  InProcessProducer,
  MemoryBusImage,
  MemoryBusOptions,
  RemovalRetention,
  StoredRecord,
} from './memory-bus.js';
export { partitionFor } from './partitioner.js';
export { KafkaBus } from './kafka-bus.js';
export { lostTheBrokers } from './connection-loss.js';
export { NO_BATCH, PartitionLostError, assertHeld } from './batch-ownership.js';
export type { PartitionHold } from './batch-ownership.js';
export type { ConsumerRejoin, KafkaBusOptions } from './kafka-bus.js';
export { AvroCodec, SchemaCompatibilityError, assertBackwardCompatible, jsonCodec } from './codec.js';
export type { AvroCodecOptions, Codec } from './codec.js';
export { TopicsUnavailableError, ensureTopics } from './topics.js';
export type { TopicAdmin, TopicReport } from './topics.js';
export { observeDeliveries } from './observed-bus.js';
export type { DeliveryObserver } from './observed-bus.js';
