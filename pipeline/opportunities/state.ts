import { selectionFamily } from '../../schemas/index.js';
import { americanToDecimal } from '../odds-math/index.js';
import type {
  CanonicalEvent,
  LeagueDef,
  MarketId,
  OddsRow,
  Opportunity,
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
  /** Row key -> latest row, every line and book. */
  rows: Map<string, OddsRow>;
  /** Active opportunities derived from this family, by id. */
  active: Map<string, Opportunity>;
  /** Input key of each active opportunity (see Candidate): unchanged inputs, nothing to do. */
  inputKeys: Map<string, string>;
}

export interface EventState {
  eventId: string;
  event: CanonicalEvent | null;
  families: Map<string, FamilyState>;
}

/** Market ids the engines leave alone: outrights have no opposite side to price against. */
export const SKIPPED_MARKETS: ReadonlySet<MarketId> = new Set<MarketId>(['future']);

export function familyKey(row: { market: MarketId; participant: string | null; statCategory: string | null; selection: SelectionType }): string {
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
  return line === null ? '-' : String(line);
}

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

/** The rows at one canonical line: book -> selection -> row. */
export type LineGroup = Map<string, Map<SelectionType, OddsRow>>;

/** The family's rows by canonical line; only the lines in `only` when given. */
export function lineGroups(family: FamilyState, only?: ReadonlySet<string>): Map<string, { line: number | null; books: LineGroup }> {
  const groups = new Map<string, { line: number | null; books: LineGroup }>();
  for (const row of family.rows.values()) {
    const line = canonicalLine(row);
    const key = lineKey(line);
    if (only && !only.has(key)) continue;
    let group = groups.get(key);
    if (!group) {
      group = { line, books: new Map() };
      groups.set(key, group);
    }
    let bySelection = group.books.get(row.book);
    if (!bySelection) {
      bySelection = new Map();
      group.books.set(row.book, bySelection);
    }
    bySelection.set(row.selection, row);
  }
  return groups;
}

/** Books of a line group in a stable order (by id), so that outputs never depend on arrival. */
export function sortedBooks(group: LineGroup): string[] {
  return [...group.keys()].sort();
}

/** The rows of one book for every outcome, or null when it lacks one. */
export function completeMarket(group: LineGroup, book: string, outcomes: readonly SelectionType[]): OddsRow[] | null {
  const bySelection = group.get(book);
  if (!bySelection) return null;
  const rows: OddsRow[] = [];
  for (const s of outcomes) {
    const r = bySelection.get(s);
    if (!r) return null;
    rows.push(r);
  }
  return rows;
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
