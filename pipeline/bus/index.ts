export type * from './bus.js';
export { topicsOf } from './bus.js';
export { MemoryBus } from './memory-bus.js';
export type { MemoryBusOptions } from './memory-bus.js';
export { partitionFor } from './partitioner.js';
export { KafkaBus } from './kafka-bus.js';
export type { KafkaBusOptions } from './kafka-bus.js';
export { AvroCodec, SchemaCompatibilityError, assertBackwardCompatible, jsonCodec } from './codec.js';
export type { AvroCodecOptions, Codec } from './codec.js';
