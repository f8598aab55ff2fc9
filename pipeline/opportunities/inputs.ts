import type { OddsRow } from '../../schemas/index.js';

/**
 * A candidate's inputs and how two of them compare: what decides whether an opportunity must be
 * built again.
 */

export type CandidateValue = string | number | boolean | null;

/** What a candidate's values depend on (see Candidate in context.ts), kept beside its opportunity. */
export interface CandidateInputs {
  /** The prices it uses, in leg order. */
  rows: readonly OddsRow[];
  /** The prices it is measured against (+EV's references), shared between candidates; empty otherwise. */
  refRows: readonly OddsRow[];
  /** Every other input, compared with `===`. */
  values: readonly CandidateValue[];
}

export const NO_ROWS: readonly OddsRow[] = [];

/**
 * Whether two candidates have the same inputs: rows that agree on id, price, time and liveness
 * (a row re-sent unchanged is the same input), and equal other values (NaN equal to itself, as
 * the text of a number would be).
 */
export function sameInputs(a: CandidateInputs, b: CandidateInputs): boolean {
  return sameRows(a.rows, b.rows) && sameRows(a.refRows, b.refRows) && sameValues(a.values, b.values);
}

function sameRows(a: readonly OddsRow[], b: readonly OddsRow[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as OddsRow;
    const y = b[i] as OddsRow;
    if (x === y) continue;
    if (x.id !== y.id || x.priceAmerican !== y.priceAmerican || x.ts !== y.ts || x.isLive !== y.isLive) return false;
  }
  return true;
}

function sameValues(a: readonly CandidateValue[], b: readonly CandidateValue[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x !== y && !(x !== x && y !== y)) return false;
  }
  return true;
}
