import { createHash } from 'node:crypto';
import fastJson from 'fast-json-stringify';
import type { CanonicalEvent, OddsRow } from '../../schemas/index.js';
import type { Catalog } from '../views/index.js';
import { isMainLine } from '../views/index.js';
import type { MainLines } from '../views/index.js';
import { oddsListItemSchema, oddsRowSchema, presentOdds } from './odds.js';

/**
 * A row's JSON is the same for every request that reads it until the row, its event or its main
 * line changes, and a price is read far more often than it changes. So each row's presented JSON
 * is serialized once, on the first read after a change, and kept as bytes; pages are built by
 * copying those fragments together instead of presenting and stringifying every row of every
 * answer.
 */

type Serializer = (payload: unknown) => string;
/** A route serializer may answer bytes: Fastify sends a Buffer as it is. */
type BytesSerializer = (payload: unknown) => string | Buffer;
/** fast-json-stringify, as Fastify builds response serializers (no extra options); its types refuse `as const` schemas. */
const compile = fastJson as unknown as (schema: object) => Serializer;

/**
 * The row schemas a fragment can be written for, each with the serializer Fastify compiles for
 * it, so a fragment is byte for byte what the route's own serializer writes. They differ in key
 * order: the serializer writes a schema's required fields first, and /odds items (projectable)
 * require none while /odds/delta rows require the core ones.
 */
const ROW_SERIALIZERS = {
  /** An item of GET /odds. */
  list: compile(oddsListItemSchema),
  /** A row of GET /odds/delta (and of every route answering with oddsRowSchema). */
  row: compile(oddsRowSchema),
} as const;
export type FragmentKind = keyof typeof ROW_SERIALIZERS;

/** Bytes of a SHA-1 digest. */
const DIGEST = 20;

/**
 * A row ready to splice: its JSON, UTF-8 encoded, followed by the SHA-1 of that JSON, in one
 * allocation. The digest lets an answer's entity tag take 20 bytes a row instead of the row's
 * ~1.3 KB (`splicedRows`, api/plugins/envelope.ts). A new one is made on every change, never
 * written again.
 */
export type ReadyRow = Buffer;

/** The JSON of a ready row, as a view. */
export function readyJson(row: ReadyRow): Buffer {
  return row.subarray(0, row.length - DIGEST);
}

/**
 * Rows already serialized, in place of `data` in an answer; `envelopeSerializer` splices them in.
 * Anything else that serializes it (JSON.stringify, a payload inspector) sees the parsed rows.
 */
export class RawRows {
  constructor(readonly rows: readonly ReadyRow[]) {}

  get length(): number {
    return this.rows.length;
  }

  toJSON(): unknown[] {
    return this.rows.map((b) => JSON.parse(b.toString('utf8', 0, b.length - DIGEST)) as unknown);
  }
}

/** Where `envelopeSerializer` put the rows in an answer's bytes, and each row's digest in order. */
export interface SplicedRows {
  /** Byte offset of the first row (just after `"data":[`). */
  start: number;
  /** Byte offset just after the last row. */
  end: number;
  /** The rows' SHA-1 digests, concatenated in page order. */
  digests: Buffer;
}

/** Answers written by `envelopeSerializer`, held as long as the answer's bytes are. */
const spliced = new WeakMap<Buffer, SplicedRows>();

/** The rows spliced into `body` if `envelopeSerializer` wrote it, else undefined. */
export function splicedRows(body: Buffer): SplicedRows | undefined {
  return spliced.get(body);
}

interface Fragment {
  event: CanonicalEvent;
  /** The main lines it was checked against: the board keeps one object per key set, so an unchanged set costs no lookup. */
  lines: MainLines;
  main: boolean;
  bytes: ReadyRow;
}

/**
 * Fragments keyed by the row object itself: the board replaces a row's object on every change
 * and the delayed boards share the live board's objects, so a change is a cache miss for every
 * tier view, a dropped row takes its fragment with it, and nothing needs invalidating by hand.
 * The event object and the main-line flag are checked too (both can change without the row).
 */
export class OddsFragments {
  private readonly cache = new WeakMap<OddsRow, Fragment>();
  /**
   * Rows with a fragment, oldest first: past `capacity` the oldest fragment is dropped. Held
   * weakly: a strong ring kept every replaced row (and its fragment) until `capacity` later
   * serializations pushed it out, which at a slow read rate took over an hour of churn.
   */
  private readonly order: (WeakRef<OddsRow> | undefined)[];
  private next = 0;
  private built = 0;

  /**
   * `capacity` bounds the memory (a fragment is about 1.3 KB): the default keeps the rows read
   * in the last 200,000 serializations, which on a million-price board is the part clients
   * actually page through; a full walk of the board serializes the rest as it goes.
   */
  private readonly serializeRow: Serializer;

  constructor(
    private readonly catalog: Catalog,
    kind: FragmentKind = 'list',
    capacity = 200_000,
  ) {
    this.serializeRow = ROW_SERIALIZERS[kind];
    this.order = new Array<WeakRef<OddsRow> | undefined>(capacity);
  }

  /** Fragments serialized so far (each change of a row read afterwards costs one). */
  get serialized(): number {
    return this.built;
  }

  of(row: OddsRow, event: CanonicalEvent, main: MainLines): ReadyRow {
    const hit = this.cache.get(row);
    if (hit && hit.event === event && hit.lines === main) return hit.bytes;
    const isMain = isMainLine(main, row);
    if (hit && hit.event === event && hit.main === isMain) {
      hit.lines = main;
      return hit.bytes;
    }
    const bytes = readyRow(this.serializeRow(presentOdds(this.catalog, row, event, main)));
    this.built++;
    if (hit) {
      hit.event = event;
      hit.lines = main;
      hit.main = isMain;
      hit.bytes = bytes;
      return bytes;
    }
    this.cache.set(row, { event, lines: main, main: isMain, bytes });
    const oldest = this.order[this.next]?.deref();
    if (oldest) this.cache.delete(oldest);
    this.order[this.next] = new WeakRef(row);
    this.next = (this.next + 1) % this.order.length;
    return bytes;
  }
}

/**
 * A fragment is kept encoded, so a page is copied together as bytes: joining strings and then
 * encoding the 130 KB result walked every page twice per request (docs/performance.md, 2026-11-29).
 * Its own allocation, not a slice of Node's shared 8 KB pool: a pooled slice keeps its whole slab
 * alive, and fragments are dropped one by one as rows change.
 */
function readyRow(json: string): ReadyRow {
  const length = Buffer.byteLength(json, 'utf8');
  const row = Buffer.allocUnsafeSlow(length + DIGEST);
  row.write(json, 0, 'utf8');
  createHash('sha1').update(row.subarray(0, length)).digest().copy(row, length);
  return row;
}

const byCatalog = new WeakMap<Catalog, Record<FragmentKind, OddsFragments>>();

/** The fragment caches of a catalog (one per app: every route presenting odds shares them). */
export function fragmentsFor(catalog: Catalog, kind: FragmentKind = 'list'): OddsFragments {
  let f = byCatalog.get(catalog);
  if (!f) byCatalog.set(catalog, (f = { list: new OddsFragments(catalog, 'list'), row: new OddsFragments(catalog, 'row') }));
  return f[kind];
}

/**
 * A route's serializer for an answer whose `data` may be `RawRows`: the rest of the answer goes
 * through the schema's compiled serializer with an empty `data`, and the answer is written as
 * bytes with the fragments copied in. `data` is the schema's first property after `success`, so
 * it is found at the start.
 */
export function envelopeSerializer(schema: object): BytesSerializer {
  const serialize = compile(schema);
  return (payload) => {
    const data = (payload as { data?: unknown } | null)?.data;
    if (!(data instanceof RawRows)) return serialize(payload);
    const rest = serialize({ ...(payload as object), data: [] });
    const at = rest.indexOf('"data":[]') + '"data":['.length;
    const rows = data.rows;
    let size = Buffer.byteLength(rest, 'utf8') + Math.max(rows.length - 1, 0);
    for (let i = 0; i < rows.length; i++) size += (rows[i] as ReadyRow).length - DIGEST;
    const page = pages.take(size);
    const digests = Buffer.allocUnsafe(rows.length * DIGEST);
    const start = page.write(rest.slice(0, at), 0, 'utf8');
    let off = start;
    for (let i = 0; i < rows.length; i++) {
      if (i > 0) page[off++] = COMMA;
      const row = rows[i] as ReadyRow;
      const length = row.length - DIGEST;
      off += row.copy(page, off, 0, length);
      row.copy(digests, i * DIGEST, length);
    }
    spliced.set(page, { start, end: off, digests });
    page.write(rest.slice(at), off, 'utf8');
    return page;
  };
}

const COMMA = 0x2c;

/**
 * The memory of spliced pages, reused once the socket has taken a page. A 100-row page is about
 * 130 KB, above glibc's threshold for a mapping of its own, so a fresh one per request paid for
 * mapping and faulting in its memory again (40-50 µs per request in a scratch test, most of it
 * system time) and counted towards V8's external memory, which brings GCs forward. Memory is
 * handed out in power-of-two classes; a page comes back only through `releasePage`, which the
 * envelope calls when the response has finished (every write done) or was never sent (304), so
 * no memory is written while a write still holds it. A page never released is collected as usual.
 */
class PagePool {
  /** Free memory by class size. */
  private readonly free = new Map<number, ArrayBuffer[]>();
  /** The memory behind each page handed out and not yet released. */
  private readonly out = new WeakMap<Buffer, ArrayBuffer>();
  private freeBytes = 0;

  take(size: number): Buffer {
    if (size < MIN_POOLED || size > MAX_POOLED) return Buffer.allocUnsafe(size);
    const cls = 2 ** Math.ceil(Math.log2(size));
    const memory = this.free.get(cls)?.pop();
    if (memory) this.freeBytes -= cls;
    const page = Buffer.from(memory ?? new ArrayBuffer(cls), 0, size);
    this.out.set(page, page.buffer);
    return page;
  }

  release(page: Buffer): void {
    const memory = this.out.get(page);
    if (!memory) return;
    this.out.delete(page);
    if (this.freeBytes + memory.byteLength > MAX_FREE_BYTES) return;
    let list = this.free.get(memory.byteLength);
    if (!list) this.free.set(memory.byteLength, (list = []));
    list.push(memory);
    this.freeBytes += memory.byteLength;
  }

  /** Bytes held for reuse (tests). */
  get held(): number {
    return this.freeBytes;
  }
}

/** Pages of a few rows come from Node's usual allocation (its shared slab below 4 KB)... */
const MIN_POOLED = 16 * 1024;
/** ...and so do pages of more than 2 MB (a 1,000-row page is about 1.3 MB). */
const MAX_POOLED = 2 * 1024 * 1024;
/** What the pool keeps at most while idle: a few in-flight pages of each size. */
const MAX_FREE_BYTES = 8 * 1024 * 1024;

const pages = new PagePool();

/**
 * Gives a page `envelopeSerializer` wrote back for reuse. Call it only once nothing will read
 * the page again: the response that carried it has finished, or it was never sent. Anything
 * else is ignored.
 */
export function releasePage(page: Buffer): void {
  pages.release(page);
}

/** Bytes of page memory held for reuse (tests). */
export function pageMemoryHeld(): number {
  return pages.held;
}

/**
 * A route option: the splicing serializer for 200, Fastify's usual one for every other status.
 * Fastify's types want a string; its reply sends a Buffer as it is (the serializer's result goes
 * to the onSend hooks and `res.end` unchanged).
 */
export function rawRowsSerializerCompiler({ schema, httpStatus }: { schema: unknown; httpStatus?: string }): Serializer {
  return (httpStatus === '200' ? envelopeSerializer(schema as object) : compile(schema as object)) as Serializer;
}
