import type { DevigMethodName, EvOpportunity } from '../../schemas/index.js';
import { csv } from '../contract/index.js';
import { evConfidence, isAlternate, playerNameOf, selectionName } from '../contract/index.js';
import type { LinesOf } from '../contract/index.js';
import type { QueryOf } from '../contract/index.js';
import type { Catalog } from '../views/index.js';
import { badQuery, checkBounds } from './invalid-query.js';
import type { BoardEntry } from '../views/index.js';

/**
 * The +EV filters on the values a row shows (Kelly, confidence, prop and alternate-line flags,
 * the player, stat and selection, the reference book), beside the EV and width bounds every
 * interface already applies: each tests what the presented row would carry, so a client
 * filtering by `confidence_score` gets exactly the rows that show a matching score.
 */
export type EvRowFilterQuery = Pick<
  QueryOf<'/api/v1/opportunities/ev'>,
  | 'min_kelly'
  | 'max_kelly'
  | 'min_confidence'
  | 'max_confidence'
  | 'is_player_prop'
  | 'is_alternate_line'
  | 'arb_available'
  | 'player_name'
  | 'stat_category'
  | 'selection'
  | 'sharp_book'
  | 'devig_book'
>;

export interface EvRowFilter {
  minKelly?: number;
  maxKelly?: number;
  minConfidence?: number;
  maxConfidence?: number;
  playerProp?: boolean;
  /** Whether the line must be (true) or must not be (false) an alternate line, with the main lines to tell. */
  alternateLine?: { wanted: boolean; lines: LinesOf };
  arbAvailable?: boolean;
  /** Lower-cased text the player's name must contain. */
  playerName?: string;
  statCategories?: ReadonlySet<string>;
  /** Lower-cased: the selection type, or text its label contains. */
  selection?: string;
  sharpBooks?: ReadonlySet<string>;
}

/** Free text as a filter: trimmed and lower-cased; empty text filters nothing. */
function text(v: string | undefined): string | undefined {
  const t = v?.trim().toLowerCase();
  return t === undefined || t.length === 0 ? undefined : t;
}

/** `devig_book` is the reference's name for `sharp_book`: either names the anchor, both must agree. */
function sharpBooksOf(q: EvRowFilterQuery, catalog: Catalog): ReadonlySet<string> | undefined {
  const sharp = csv(q.sharp_book);
  const devig = csv(q.devig_book);
  if (sharp && devig && [...sharp].sort().join(',') !== [...devig].sort().join(','))
    throw badQuery(
      'devig_book',
      `is an alias of 'sharp_book' and names other books ('${q.devig_book}' against '${q.sharp_book}'); give one of them`,
    );
  const field = sharp ? 'sharp_book' : 'devig_book';
  const books = sharp ?? devig;
  for (const b of books ?? []) if (!catalog.books.has(b)) throw badQuery(field, `unknown sportsbook '${b}'`);
  return books;
}

/** The row filters a query asks for, or undefined when it asks for none (the list then costs nothing more). */
export function parseEvRowFilter(q: EvRowFilterQuery, catalog: Catalog, lines: LinesOf): EvRowFilter | undefined {
  checkBounds('min_kelly', q.min_kelly, q.max_kelly, 'max_kelly');
  checkBounds('min_confidence', q.min_confidence, q.max_confidence, 'max_confidence');
  const stats = csv(q.stat_category);
  const statCategories = stats && [...stats].map((s) => s.toLowerCase());
  const sharpBooks = sharpBooksOf(q, catalog);
  const f: EvRowFilter = {
    ...(q.min_kelly === undefined ? {} : { minKelly: q.min_kelly }),
    ...(q.max_kelly === undefined ? {} : { maxKelly: q.max_kelly }),
    ...(q.min_confidence === undefined ? {} : { minConfidence: q.min_confidence }),
    ...(q.max_confidence === undefined ? {} : { maxConfidence: q.max_confidence }),
    ...(q.is_player_prop === undefined ? {} : { playerProp: q.is_player_prop }),
    ...(q.is_alternate_line === undefined ? {} : { alternateLine: { wanted: q.is_alternate_line, lines } }),
    ...(q.arb_available === undefined ? {} : { arbAvailable: q.arb_available }),
    ...(text(q.player_name) === undefined ? {} : { playerName: text(q.player_name) }),
    ...(statCategories ? { statCategories: new Set(statCategories) } : {}),
    ...(text(q.selection) === undefined ? {} : { selection: text(q.selection) }),
    ...(sharpBooks ? { sharpBooks } : {}),
  };
  return Object.keys(f).length === 0 ? undefined : f;
}

/** Whether a +EV entry's row, presented under `method`, passes the filter. */
export function evRowMatches(e: BoardEntry<EvOpportunity>, f: EvRowFilter, method: DevigMethodName, catalog: Catalog): boolean {
  const o = e.o;
  const kelly = o.methods[method].kellyPercent;
  if ((f.minKelly !== undefined && kelly < f.minKelly) || (f.maxKelly !== undefined && kelly > f.maxKelly)) return false;
  if (f.playerProp !== undefined && (o.market === 'player_prop') !== f.playerProp) return false;
  if (f.arbAvailable !== undefined && o.arbAvailable !== f.arbAvailable) return false;
  if (f.sharpBooks && !f.sharpBooks.has(o.sharpBook)) return false;
  if (f.statCategories && (o.statCategory === null || !f.statCategories.has(o.statCategory.toLowerCase()))) return false;
  if (f.playerName !== undefined && !(playerNameOf(o)?.toLowerCase().includes(f.playerName) ?? false)) return false;
  if (
    f.selection !== undefined &&
    o.selection !== f.selection &&
    !selectionName(catalog, o, o.selection).toLowerCase().includes(f.selection)
  )
    return false;
  if (f.alternateLine && isAlternate(o, f.alternateLine.lines) !== f.alternateLine.wanted) return false;
  if (f.minConfidence !== undefined || f.maxConfidence !== undefined) {
    const c = evConfidence(o, method);
    if ((f.minConfidence !== undefined && c < f.minConfidence) || (f.maxConfidence !== undefined && c > f.maxConfidence)) return false;
  }
  return true;
}
