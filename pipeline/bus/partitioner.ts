/**
 * FNV-1a over the UTF-16 code units: cheap, stable across processes, and spreads event ids
 * evenly. The Kafka adapter uses Kafka's own partitioner; only stability within one bus matters.
 */
export function partitionFor(key: string, partitions: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % partitions;
}
