import type { AccountRecord, OddsRow, Opportunity, OpportunityKind } from '../../schemas/index.js';
import { opportunityAtCommission, rowAtCommission } from '../../pipeline/opportunities/index.js';
import type { BoardEntry, EntryOf, OpportunityBoard } from '../views/index.js';
import { ApiError } from '../errors.js';

/**
 * The commission rate a caller's answers use, on every interface: the request's own
 * `commission`, else the account's stored preference, else none (the exchange's base rate,
 * as the board holds it).
 */
export function callerCommission(requested: number | undefined, account: AccountRecord | undefined): number | undefined {
  return requested ?? account?.exchangeCommission ?? undefined;
}

/**
 * A route's query (or JSON body) as its answer should see it: with the caller's rate
 * (`callerCommission`) in `commission` when the schema takes one. REST (a hook) and MCP (the
 * tool runner) pass every query and body through here, so no route or tool resolves the rate.
 */
export function queryAtCallerRate<Q extends object>(query: Q, querySchema: unknown, account: AccountRecord | undefined): Q {
  if (!takesCommission(querySchema)) return query;
  const requested = (query as { commission?: unknown }).commission;
  const rate = callerCommission(typeof requested === 'number' ? requested : undefined, account);
  return rate === undefined || rate === requested ? query : { ...query, commission: rate };
}

function takesCommission(querySchema: unknown): boolean {
  if (typeof querySchema !== 'object' || querySchema === null) return false;
  const properties = (querySchema as { properties?: unknown }).properties;
  return typeof properties === 'object' && properties !== null && Object.hasOwn(properties, 'commission');
}

/**
 * A commission rate given where no JSON schema checks it (a WebSocket filter): percent, at least
 * 0 and under 100, as the REST parameter's schema requires.
 */
export function commissionFilter(rate: number | undefined): number | undefined {
  if (rate === undefined || (rate >= 0 && rate < 100)) return rate;
  throw new ApiError('invalid_request', "Invalid filter 'commission': must be a percent from 0 to under 100");
}

/** A row as a caller on its own exchange commission rate is paid (`rowAtCommission`); as it is without one. */
export function rowAtRate(row: OddsRow, commission: number | undefined): OddsRow {
  return commission === undefined ? row : rowAtCommission(row, commission);
}

/**
 * A kind's opportunities as a caller on `commission` is served them (`entriesAtCommission`).
 * Without a rate, the board's list as it is: the combinations the pipeline found only at a
 * search rate below an exchange's own are not in it. With one, every record, each checked again
 * at the caller's rate, so one found at the search rate reaches the callers it holds for.
 */
export function listAtCommission<K extends OpportunityKind>(
  board: OpportunityBoard,
  kind: K,
  commission: number | undefined,
): readonly EntryOf<K>[] {
  return entriesAtCommission(board.list(kind, commission === undefined ? 'board' : 'any'), commission);
}

/** The entries of a kind showing one situation, as a caller on `commission` is served them (as `listAtCommission`). */
export function situationAtCommission<K extends OpportunityKind>(
  board: OpportunityBoard,
  kind: K,
  situation: string,
  commission: number | undefined,
): readonly EntryOf<K>[] {
  return entriesAtCommission(board.situation(kind, situation, commission === undefined ? 'board' : 'any'), commission);
}

/**
 * The board's opportunities as a caller on its own exchange commission rate sees them: each
 * combination with exchange legs checked again at that rate (`opportunityAtCommission`), the
 * arbitrages it makes unprofitable left out. Without a rate, the board's list as it is.
 */
function entriesAtCommission<E extends BoardEntry<Opportunity>>(entries: readonly E[], commission: number | undefined): readonly E[] {
  if (commission === undefined) return entries;
  const out: E[] = [];
  for (const e of entries) {
    const o = repriced(e.o, commission);
    if (o === e.o) out.push(e);
    else if (o !== null) out.push({ ...e, o });
  }
  return out;
}

// A stream compares a subscriber's records by identity to send only what changed, so one board
// record at one rate is priced once and the same object comes back until the board replaces it.
const REPRICED = new WeakMap<Opportunity, Map<number, Opportunity | null>>();

function repriced(o: Opportunity, commission: number): Opportunity | null {
  let byRate = REPRICED.get(o);
  if (byRate === undefined) {
    byRate = new Map();
    REPRICED.set(o, byRate);
  }
  let out = byRate.get(commission);
  if (out === undefined) {
    out = opportunityAtCommission(o, commission);
    byRate.set(commission, out);
  }
  return out;
}
