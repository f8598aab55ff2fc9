import fastJson from 'fast-json-stringify';
import type { CanonicalEvent, OddsRow } from '../../schemas/index.js';
import type { Catalog } from '../views/index.js';
import { isMainLine } from '../views/index.js';
import type { MainLines } from '../views/index.js';
import { oddsListItemSchema, oddsRowSchema, presentOdds } from './odds.js';

/**
 * A row's JSON is the same for every request that reads it until the row, its event or its main
 * line changes, and a price is read far more often than it changes. So each row's presented JSON
 * is serialized once, on the first read after a change, and pages are built by joining those
 * fragments instead of presenting and stringifying every row of every answer.
 */

type Serializer = (payload: unknown) => string;
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

/**
 * Rows already serialized, in place of `data` in an answer; `envelopeSerializer` splices them in.
 * Anything else that serializes it (JSON.stringify, a payload inspector) sees the parsed rows.
 */
export class RawRows {
  constructor(readonly json: readonly string[]) {}

  get length(): number {
    return this.json.length;
  }

  toJSON(): unknown[] {
    return this.json.map((j) => JSON.parse(j) as unknown);
  }
}

interface Fragment {
  event: CanonicalEvent;
  /** The main lines it was checked against: the board keeps one object per key set, so an unchanged set costs no lookup. */
  lines: MainLines;
  main: boolean;
  json: string;
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

  of(row: OddsRow, event: CanonicalEvent, main: MainLines): string {
    const hit = this.cache.get(row);
    if (hit && hit.event === event && hit.lines === main) return hit.json;
    const isMain = isMainLine(main, row);
    if (hit && hit.event === event && hit.main === isMain) {
      hit.lines = main;
      return hit.json;
    }
    const json = flat(this.serializeRow(presentOdds(this.catalog, row, event, main)));
    this.built++;
    if (hit) {
      hit.event = event;
      hit.lines = main;
      hit.main = isMain;
      hit.json = json;
      return json;
    }
    this.cache.set(row, { event, lines: main, main: isMain, json });
    const oldest = this.order[this.next]?.deref();
    if (oldest) this.cache.delete(oldest);
    this.order[this.next] = new WeakRef(row);
    this.next = (this.next + 1) % this.order.length;
    return json;
  }
}

/**
 * The serializer builds a row by appending dozens of pieces, which V8 keeps as a tree of
 * concatenations; joining such trees walks every node again on every request. A numeric
 * conversion flattens the string in place once (pino's `flatstr`). Measured on the 45k board,
 * GET /odds?limit=100 in process: see docs/performance.md.
 */
function flat(s: string): string {
  Number(s);
  return s;
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
 * through the schema's compiled serializer with an empty `data`, and the fragments are spliced
 * in. `data` is the schema's first property after `success`, so it is found at the start.
 */
export function envelopeSerializer(schema: object): Serializer {
  const serialize = compile(schema);
  return (payload) => {
    const data = (payload as { data?: unknown } | null)?.data;
    if (!(data instanceof RawRows)) return serialize(payload);
    const rest = serialize({ ...(payload as object), data: [] });
    const at = rest.indexOf('"data":[]') + '"data":['.length;
    // One join writes the answer once; slices of a flat string are views, not copies.
    const parts: string[] = [rest.slice(0, at)];
    for (let i = 0; i < data.json.length; i++) {
      if (i > 0) parts.push(',');
      parts.push(data.json[i] as string);
    }
    parts.push(rest.slice(at));
    return parts.join('');
  };
}

/** A route option: the splicing serializer for 200, Fastify's usual one for every other status. */
export function rawRowsSerializerCompiler({ schema, httpStatus }: { schema: unknown; httpStatus?: string }): Serializer {
  return httpStatus === '200' ? envelopeSerializer(schema as object) : compile(schema as object);
}
