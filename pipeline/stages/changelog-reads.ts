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

/**
 * Two logs as one sequence in the order their records were written (`timestamp`): the order a
 * consumer of both topics meets them in, which a restore must replay when an input of one log
 * acts on the state the other built (an event's new start rebuilds the families its odds made).
 * A merge, not a sort: each log keeps its own order even where its timestamps step back. At equal
 * timestamps `first`'s record goes first.
 */
export function inWriteOrder<R extends { timestamp: number }>(first: readonly R[], second: readonly R[]): R[] {
  const out: R[] = [];
  let i = 0;
  let j = 0;
  while (i < first.length && j < second.length) {
    const a = first[i] as R;
    const b = second[j] as R;
    if (a.timestamp <= b.timestamp) {
      out.push(a);
      i++;
    } else {
      out.push(b);
      j++;
    }
  }
  for (; i < first.length; i++) out.push(first[i] as R);
  for (; j < second.length; j++) out.push(second[j] as R);
  return out;
}
