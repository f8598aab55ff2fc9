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
 * combinations of rows that left. The rows that stay still pair up in ever new ways as prices
 * move (arbitrage and middles combine any book's side with any other's), and a combination that
 * stopped qualifying may never come back: what the cache must remember is what the engines keep
 * asking for, so it keeps two generations and drops the older one every `ID_GENERATION_MS`
 * (`ageIds`); a combination asked for again in the meantime moves into the newer one. Bounded by
 * node count alone (four per live row, starting over when past it), the families' caches held
 * some 6,000 nodes after a minute of the soak's board and still grew by 800 a minute towards
 * their 182,000-node bound, a fill no soak's warm-up could wait out. An id it let go of is
 * computed again on demand, the same one.
 */
export const ID_GENERATION_MS = 60_000;
/** Nodes per live row a generation keeps at most (two generations: four in all) ... */
const ID_NODES_PER_ROW = 2;
/** ... below this many a small family never rolls over early ... */
const MIN_ID_NODES = 32;
/** ... and never more than this, however many rows. */
const MAX_ID_NODES = 2_048;

/**
 * Ids of one family's opportunities by kind, then by the row id of each leg: combinations of the
 * family's live rows (`forgetRow`) asked for within the last one or two generations (`ageIds`).
 * A generation past `nodesPerRow` nodes per live row (at least `minNodes`, at most `maxNodes`)
 * becomes the older one at once, so a burst of new combinations cannot outgrow the bound.
 */
export class IdCache {
  /** The current generation. */
  root = new Map<string, IdNode>();
  nodes = 0;
  /** The generation before: what it knows is moved into `root` when asked for. */
  older = new Map<string, IdNode>();
  olderNodes = 0;
  /** When the current generation began (null: not yet asked). */
  since: number | null = null;
  constructor(
    readonly maxNodes = MAX_ID_NODES,
    readonly nodesPerRow = ID_NODES_PER_ROW,
    readonly minNodes = MIN_ID_NODES,
  ) {}

  /** The most nodes one generation keeps for a family of `rows` live rows. */
  limit(rows: number): number {
    return Math.min(this.maxNodes, Math.max(this.minNodes, this.nodesPerRow * rows));
  }

  /** Nodes in both generations. */
  get size(): number {
    return this.nodes + this.olderNodes;
  }
}

/**
 * Starts a new generation once the current one is `ID_GENERATION_MS` old: the processor calls it
 * with the batch's time before it recomputes the family, so what the cache holds is what the
 * engines asked for in the last one to two generations.
 */
export function ageIds(cache: IdCache, now: number): void {
  if (cache.since === null) cache.since = now;
  else if (now - cache.since >= ID_GENERATION_MS) {
    roll(cache);
    cache.since = now;
  }
}

function roll(cache: IdCache): void {
  cache.older = cache.root;
  cache.olderNodes = cache.nodes;
  cache.root = new Map();
  cache.nodes = 0;
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
  if (cache.nodes + legs.length + 1 > cache.limit(family.rowCount)) roll(cache);
  let node = step(cache, cache.root, kind);
  for (const leg of legs) node = step(cache, (node.next ??= new Map()), leg.id);
  if (node.id !== null && node.legs !== null && sameLegs(node.legs, legs)) return node.id;
  const before = find(cache.older, kind, legs);
  if (before !== null && before.id !== null && before.legs !== null && sameLegs(before.legs, legs)) {
    node.id = before.id;
    node.legs = before.legs;
    return node.id;
  }
  node.id = opportunityId(kind, eventId, family.key, legs);
  node.legs = legs.map((l) => ({ book: l.book, selection: l.selection, line: l.line }));
  return node.id;
}

function find(root: Map<string, IdNode>, kind: string, legs: readonly { id: string }[]): IdNode | null {
  let node = root.get(kind);
  for (const leg of legs) node = node?.next?.get(leg.id);
  return node ?? null;
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
 * Forgets every combination that has this row as a leg, in both generations: the processor calls
 * it when the row leaves its family (pulled, suspended or moved to another line), so the cache
 * holds only combinations of rows still on the board. A walk of the family's cache, which is that
 * small.
 */
export function forgetRow(cache: IdCache, rowId: string): void {
  cache.nodes -= prune(cache.root, rowId);
  cache.olderNodes -= prune(cache.older, rowId);
}

/** Removes the combinations with `rowId` as a leg; how many nodes went. */
function prune(map: Map<string, IdNode>, rowId: string): number {
  let removed = 0;
  const gone = map.get(rowId);
  if (gone) {
    removed += nodeCount(gone);
    map.delete(rowId);
  }
  for (const [key, node] of map) {
    if (node.next === null) continue;
    removed += prune(node.next, rowId);
    if (node.next.size > 0) continue;
    node.next = null;
    // A node that only led to the combinations just forgotten names nothing itself.
    if (node.id === null) {
      map.delete(key);
      removed++;
    }
  }
  return removed;
}

function nodeCount(node: IdNode): number {
  let n = 1;
  if (node.next) for (const child of node.next.values()) n += nodeCount(child);
  return n;
}
