import type { Opportunity } from '../../schemas/index.js';
import { opportunityAtCommission } from '../../pipeline/opportunities/index.js';
import type { BoardEntry } from '../views/index.js';

/**
 * The board's opportunities as a caller on its own exchange commission rate sees them: each
 * combination with exchange legs checked again at that rate (`opportunityAtCommission`), the
 * arbitrages it makes unprofitable left out. Without a rate, the board's list as it is.
 */
export function entriesAtCommission<E extends BoardEntry<Opportunity>>(
  entries: readonly E[],
  commission: number | undefined,
): readonly E[] {
  if (commission === undefined) return entries;
  const out: E[] = [];
  for (const e of entries) {
    const o = opportunityAtCommission(e.o, commission);
    if (o === e.o) out.push(e);
    else if (o !== null) out.push({ ...e, o });
  }
  return out;
}
