import { hash } from 'node:crypto';
import type { OpportunityKind } from '../../schemas/index.js';
import { Memo } from './memo.js';

type Leg = { book: string; selection: string; line: number | null };

/**
 * Stable opportunity id: the same kind, event, market group, books, selections and lines give
 * the same id in every process and every replay, so updates and expiries find their record.
 */
export function opportunityId(kind: OpportunityKind, eventId: string, familyKey: string, legs: readonly Leg[]): string {
  const parts = legs.map((l) => `${l.book}:${l.selection}:${l.line ?? ''}`).join(',');
  const text = `${kind}|${eventId}|${familyKey}|${parts}`;
  // 16 lowercase hex digits, the reference's id format (its middle detail path accepts no other).
  return IDS.get(text, () => hash('sha1', text, 'hex').slice(0, 16));
}

// The same combinations come back on every tick of a market; hashing them again cost ~10 % of
// the processor's time in bench/opportunities.ts, before the family caches below took the
// repeats. What reaches it now are combinations a family cache let go of; 200,000 entries
// (about 35 MB) took over half an hour to fill at the soak's 2,000 ticks/s, growing all along.
const IDS = new Memo<string>(20_000);

/**
 * A family lives as long as its event (hours before the start), while its rows come and go as
 * lines move: a cache that only ever added nodes grew by every combination of rows it had seen
 * (about 70k nodes per 5 minutes in the soak at 2,000 ticks/s). `forgetRow` drops the
 * combinations of rows that left; the rows that stay still pair up in ever new ways as prices
 * move (arbitrage and middles combine any book's side with any other's), so it also starts over
 * past a few nodes per live row. An id it let go of is computed again on demand, the same one.
 */
const ID_NODES_PER_ROW = 4;
/** Below this many nodes a small family never starts over. */
const MIN_ID_NODES = 64;
/** And never more than this, however many rows. */
const MAX_ID_NODES = 4_096;

/**
 * Ids of one family's opportunities by kind, then by the row id of each leg: combinations of the
 * family's live rows (`forgetRow`), at most `nodesPerRow` nodes per live row (at least
 * `minNodes`, at most `maxNodes`).
 */
export class IdCache {
  readonly root = new Map<string, IdNode>();
  nodes = 0;
  constructor(
    readonly maxNodes = MAX_ID_NODES,
    readonly nodesPerRow = ID_NODES_PER_ROW,
    readonly minNodes = MIN_ID_NODES,
  ) {}

  /** The most nodes it keeps for a family of `rows` live rows. */
  limit(rows: number): number {
    return Math.min(this.maxNodes, Math.max(this.minNodes, this.nodesPerRow * rows));
  }
}

/** What a family's id lookup needs of the family: its cache, its key and how many rows it holds. */
export interface IdFamily {
  ids: IdCache;
  key: string;
  rowCount: number;
}

interface IdNode {
  next: Map<string, IdNode> | null;
  id: string | null;
  /** What the id was computed from: a row id names its book, selection and line, checked anyway. */
  legs: Leg[] | null;
}

/**
 * `opportunityId` for a family whose legs are rows (`id` is the row id): found by walking maps
 * keyed by strings that already exist (kind, row ids), so a repeat builds no text and hashes
 * none; building and hashing the id text was the engines' largest string cost per recompute.
 */
export function familyOpportunityId(
  family: IdFamily,
  kind: OpportunityKind,
  eventId: string,
  legs: readonly (Leg & { id: string })[],
): string {
  const cache = family.ids;
  if (cache.nodes + legs.length + 1 > cache.limit(family.rowCount)) {
    cache.root.clear();
    cache.nodes = 0;
  }
  let node = step(cache, cache.root, kind);
  for (const leg of legs) node = step(cache, (node.next ??= new Map()), leg.id);
  if (node.id !== null && node.legs !== null && sameLegs(node.legs, legs)) return node.id;
  node.id = opportunityId(kind, eventId, family.key, legs);
  node.legs = legs.map((l) => ({ book: l.book, selection: l.selection, line: l.line }));
  return node.id;
}

function step(cache: IdCache, map: Map<string, IdNode>, key: string): IdNode {
  let node = map.get(key);
  if (!node) {
    node = { next: null, id: null, legs: null };
    map.set(key, node);
    cache.nodes++;
  }
  return node;
}

function sameLegs(a: readonly Leg[], b: readonly Leg[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as Leg;
    const y = b[i] as Leg;
    if (x.book !== y.book || x.selection !== y.selection || x.line !== y.line) return false;
  }
  return true;
}

/**
 * Forgets every combination that has this row as a leg: the processor calls it when the row
 * leaves its family (pulled, suspended or moved to another line), so the cache holds only
 * combinations of rows still on the board. A walk of the family's cache, which is that small.
 */
export function forgetRow(cache: IdCache, rowId: string): void {
  prune(cache, cache.root, rowId);
}

function prune(cache: IdCache, map: Map<string, IdNode>, rowId: string): void {
  const gone = map.get(rowId);
  if (gone) {
    cache.nodes -= nodeCount(gone);
    map.delete(rowId);
  }
  for (const [key, node] of map) {
    if (node.next === null) continue;
    prune(cache, node.next, rowId);
    if (node.next.size > 0) continue;
    node.next = null;
    // A node that only led to the combinations just forgotten names nothing itself.
    if (node.id === null) {
      map.delete(key);
      cache.nodes--;
    }
  }
}

function nodeCount(node: IdNode): number {
  let n = 1;
  if (node.next) for (const child of node.next.values()) n += nodeCount(child);
  return n;
}
