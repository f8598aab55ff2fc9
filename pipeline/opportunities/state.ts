import { selectionFamily } from '../../schemas/index.js';
import { americanToDecimal } from '../odds-math/index.js';
import type { CandidateInputs } from './inputs.js';
import type { IdCache } from './ids.js';
import type { LineGroupState } from './line-group.js';
import { WIDTH, newLineGroup, putRow, selectionIndex, takeRow } from './line-group.js';
import type {
  CanonicalEvent,
  LeagueDef,
  MarketId,
  OddsRow,
  Opportunity,
  OpportunityLeg,
  OpportunityPrice,
  SelectionFamily,
  SelectionType,
} from '../../schemas/index.js';

/**
 * The processor's state: per event, its families of outcomes priced against each other
 * (market, participant, stat, selection family), each with every book's latest rows. A family
 * holds every line; the engines work on one line group (the rows at one canonical line) or, for
 * middles, on the whole family.
 */

export interface FamilyState {
  key: string;
  market: MarketId;
  participant: string | null;
  statCategory: string | null;
  family: SelectionFamily;
  /** How many rows it holds, every line and book (the rows are in `lines`, by line, book and selection). */
  rowCount: number;
  /** The same rows by canonical line (line key), kept as they change: no regrouping per recompute. */
  lines: Map<string, LineGroupState>;
  /** Active opportunities derived from this family, by id. */
  active: Map<string, Opportunity>;
  /** Per active opportunity: its inputs (see Candidate in context.ts) and its recompute scope. */
  inputs: Map<string, ActiveInputs>;
  /** Opportunity ids already computed for this family's combinations of rows. */
  ids: IdCache;
}

export interface ActiveInputs extends CandidateInputs {
  /** The line key of the group it came from, or `middle`. */
  scope: string;
  /** The recompute that last produced it (the others in scope are gone). */
  seen: number;
  /**
   * The thresholds' generation (`Thresholds` in lifecycle.ts) at which its record's stale clock
   * was last computed: while no threshold has moved since, the clock is today's.
   */
  clockedAt: number;
}

export interface EventState {
  eventId: string;
  event: CanonicalEvent | null;
  families: Map<string, FamilyState>;
}

/** Market ids the engines leave alone: outrights have no opposite side to price against. */
export const SKIPPED_MARKETS: ReadonlySet<MarketId> = new Set<MarketId>(['future']);

export function familyKey(row: {
  market: MarketId;
  participant: string | null;
  statCategory: string | null;
  selection: SelectionType;
}): string {
  return `${row.market}|${row.participant ?? ''}|${row.statCategory ?? ''}|${selectionFamily(row.selection)}`;
}

/**
 * The line of a row as its market group sees it: home's handicap for sides (home -2.5 and away
 * +2.5 are one market), the threshold for totals and props, null without a line.
 */
export function canonicalLine(row: { selection: SelectionType; line: number | null }): number | null {
  if (row.line === null) return null;
  if (row.selection === 'away') return 0 - row.line;
  return row.line;
}

export function lineKey(line: number | null): string {
  if (line === null) return '-';
  let key = LINE_KEYS.get(line);
  if (key === undefined) {
    if (LINE_KEYS.size >= 10_000) LINE_KEYS.clear();
    key = String(line);
    LINE_KEYS.set(line, key);
  }
  return key;
}

/**
 * Line keys by line: a board has few distinct lines, and one string per line spares a number
 * formatting per new row and makes equal keys the same string (cheap map lookups). Bounded.
 */
const LINE_KEYS = new Map<number, string>();

/** The outcomes a complete market of this family has, in a fixed order. */
export function outcomesOf(family: Pick<FamilyState, 'family' | 'market'>, league: LeagueDef | undefined): SelectionType[] {
  switch (family.family) {
    case 'side':
      return family.market === 'moneyline' && league?.threeWay === true ? ['home', 'draw', 'away'] : ['home', 'away'];
    case 'total':
      return ['over', 'under'];
    case 'binary':
      return ['yes', 'no'];
  }
}

/** Puts a row into its line group (`key`: its line key; creates the group); the family's `rows` is the caller's. */
export function addToLine(family: FamilyState, row: OddsRow, key: string): void {
  let group = family.lines.get(key);
  if (!group) {
    group = newLineGroup(canonicalLine(row), key);
    family.lines.set(key, group);
  }
  putRow(group, row);
}

/** Takes a row out of its line group, dropping what becomes empty. */
export function removeFromLine(family: FamilyState, row: OddsRow, key: string): void {
  const group = family.lines.get(key);
  if (!group) return;
  takeRow(group, row);
  if (group.books.length === 0) family.lines.delete(key);
}

/** Books of a line group in a stable order (by id), so that outputs never depend on arrival. */
export function sortedBooks(group: LineGroupState): readonly string[] {
  group.sortedBooks ??= [...group.books].sort();
  return group.sortedBooks;
}

/** The slots of `sortedBooks(group)`, in that order. */
export function sortedSlots(group: LineGroupState): readonly number[] {
  if (group.sortedSlots === null) {
    const slots: number[] = [];
    for (const book of sortedBooks(group)) slots.push(group.slots.get(book) as number);
    group.sortedSlots = slots;
  }
  return group.sortedSlots;
}

/** The rows of the book in `slot` for every outcome, or null when it lacks one. */
export function completeMarket(group: LineGroupState, slot: number, outcomes: readonly SelectionType[]): OddsRow[] | null {
  const rows: OddsRow[] = [];
  const base = slot * WIDTH;
  for (const s of outcomes) {
    const r = group.rows[base + selectionIndex(s)];
    if (r == null) return null;
    rows.push(r);
  }
  return rows;
}

/** A leg: the price and its stake share, in the field order of `{ ...priceOf(row), stakeShare }` without the copy. */
export function legOf(row: OddsRow, stakeShare: number): OpportunityLeg {
  const leg = priceOf(row) as OpportunityLeg;
  leg.stakeShare = stakeShare;
  const x = row.exchange;
  if (x != null) {
    // What a caller on another commission rate needs to price this back again (account-rate.ts).
    leg.commission = x.commission;
    if (x.back !== null) leg.backPrice = x.back;
    if (x.backSize !== null) leg.maxLegStake = x.backSize;
  }
  return leg;
}

export function priceOf(row: OddsRow): OpportunityPrice {
  return {
    book: row.book,
    selection: row.selection,
    line: row.line,
    priceAmerican: row.priceAmerican,
    priceDecimal: row.priceDecimal,
    ts: row.ts,
    rowId: row.id,
    bookEventId: row.bookEventId,
    selectionId: row.selectionId,
  };
}

/** Rounding of published values: percentages to 4 decimals, probabilities to 6. */
export function round(x: number, digits: number): number {
  const f = 10 ** digits;
  const r = Math.round(x * f) / f;
  return r === 0 ? 0 : r;
}

/** The exact decimal price (rows carry it rounded to 4 decimals for display). */
export function decimalOf(row: { priceAmerican: number }): number {
  return americanToDecimal(row.priceAmerican);
}
