import { createHash } from 'node:crypto';
import type { OpportunityKind } from '../../schemas/index.js';
import { Memo } from './memo.js';

/**
 * Stable opportunity id: the same kind, event, market group, books, selections and lines give
 * the same id in every process and every replay, so updates and expiries find their record.
 */
export function opportunityId(kind: OpportunityKind, eventId: string, familyKey: string, legs: readonly { book: string; selection: string; line: number | null }[]): string {
  const parts = legs.map((l) => `${l.book}:${l.selection}:${l.line ?? ''}`).join(',');
  const text = `${kind}|${eventId}|${familyKey}|${parts}`;
  return IDS.get(text, () => createHash('sha1').update(text).digest('hex').slice(0, 20));
}

// The same combinations come back on every tick of a market; hashing them again cost ~10 % of
// the processor's time in bench/opportunities.ts.
const IDS = new Memo<string>(200_000);
