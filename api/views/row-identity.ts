import type { OddsRow } from '../../schemas/index.js';

/**
 * What identifies an outcome: the event, market, participant, stat, selection and line. Every
 * book's row of one outcome shares it; a row is an outcome plus its book (the snapshot's row
 * key, `oddsRowKey`, and the public `id` hash it). Defined here once for best prices,
 * comparisons and streams.
 */
export type OutcomeIdentity = Pick<OddsRow, 'eventId' | 'market' | 'participant' | 'statCategory' | 'selection' | 'line'>;

export function sameOutcome(a: OutcomeIdentity, b: OutcomeIdentity): boolean {
  return (
    a.eventId === b.eventId &&
    a.market === b.market &&
    a.selection === b.selection &&
    a.line === b.line &&
    a.participant === b.participant &&
    a.statCategory === b.statCategory
  );
}

/** An outcome within its event, as text: `market:participant:stat:selection:line`, empty parts left out. */
export function outcomeKey(row: Omit<OutcomeIdentity, 'eventId'>): string {
  const parts: string[] = [row.market];
  if (row.participant !== null) parts.push(row.participant);
  if (row.statCategory !== null) parts.push(row.statCategory);
  parts.push(row.selection);
  if (row.line !== null) parts.push(String(row.line));
  return parts.join(':');
}

/** The better of two prices of one outcome: higher decimal price, then the more recent. */
export function betterPrice(a: OddsRow, b: OddsRow): boolean {
  return a.priceDecimal > b.priceDecimal || (a.priceDecimal === b.priceDecimal && a.ts > b.ts);
}
