export type * from './bus.js';
export { MemoryBus } from './memory-bus.js';
export type { MemoryBusOptions } from './memory-bus.js';
export { partitionFor } from './partitioner.js';
