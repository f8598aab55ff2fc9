import type { TopicName } from '../../schemas/index.js';
import type { Bus, BusRecord, ReadScope } from '../bus/index.js';

/** A topic's records within `scope`, read outside any group (a restore). */
export async function collect<T extends TopicName>(bus: Bus, topic: T, scope: ReadScope): Promise<BusRecord<T>[]> {
  const out: BusRecord<T>[] = [];
  await bus.readToEnd(
    topic,
    (records) => {
      for (const r of records) out.push(r);
    },
    scope,
  );
  return out;
}

/** Records grouped by partition (in order), each mapped to an input; null inputs are left out. */
export function byPartition<T extends TopicName, I>(
  records: readonly BusRecord<T>[],
  input: (r: BusRecord<T>) => I | null,
): Map<number, I[]> {
  const out = new Map<number, I[]>();
  for (const r of records) {
    const i = input(r);
    if (i === null) continue;
    let list = out.get(r.partition);
    if (!list) out.set(r.partition, (list = []));
    list.push(i);
  }
  return out;
}
