import { sameExchangeQuote } from '../../schemas/index.js';
import type { ExchangeQuote, MarketId, OddsChange, OddsRow, SelectionType } from '../../schemas/index.js';

/**
 * An odds change as one string, for changes that wait a long time in memory (a delayed board's
 * line holds a minute of them). As objects, each waiting change is a dozen heap objects: the
 * change, its row, the row's boxed numbers (price, probability, line, time) and strings that
 * only a superseded row still holds. A full mark of the heap visits every one of them, and at
 * 2,000 ticks/s a minute's line was a fifth of what the stream bench's major GCs marked. As
 * text it is one string, which a mark only has to flag.
 *
 * The text is a JSON array of the fields in a fixed order: numbers come back exactly (JSON
 * prints the shortest form that reads back to the same double), and so do strings, booleans
 * and nulls, which is all a change holds.
 */
export type PackedChange = string & { readonly __packed: unique symbol };

export function packChange(c: OddsChange): PackedChange {
  const r = c.row;
  const fields =
    r === null
      ? [c.key, c.eventId, c.changedAt]
      : [
          c.key,
          c.eventId,
          c.changedAt,
          r.id,
          r.eventId,
          r.book,
          r.market,
          r.selection,
          r.line,
          r.participant,
          r.statCategory,
          r.priceAmerican,
          r.priceDecimal,
          r.probability,
          r.ts,
          r.isLive,
          r.bookEventId,
          r.selectionId,
          r.isActive,
          r.suspendedSince,
          r.oddsChangedAt,
          r.observedAt,
          // An exchange's quote follows only on its rows, so a sportsbook's change packs no longer.
          ...(r.exchange == null
            ? []
            : [r.exchange.back, r.exchange.backSize, r.exchange.lay, r.exchange.laySize, r.exchange.volume, r.exchange.commission]),
        ];
  return flat(JSON.stringify(fields)) as PackedChange;
}

/**
 * The same text as one flat string. V8's JSON.stringify builds its result from parts that double
 * in size, joined as a rope: a 250-character change came out as seven string objects, more than
 * the objects it replaces. `trim` flattens first and, with nothing to trim (JSON has no outer
 * whitespace), returns the flat string alone: 345 -> 250 bytes per change in a heap measurement.
 */
function flat(text: string): string {
  return text.trim();
}

type Fields = [
  string,
  string,
  number,
  string,
  string,
  string,
  MarketId,
  SelectionType,
  number | null,
  string | null,
  string | null,
  number,
  number,
  number,
  number,
  boolean,
  string,
  string | null,
  boolean,
  number | null,
  number,
  number,
  ...ExchangeFields,
];

/** back, backSize, lay, laySize, volume, commission: present on an exchange's rows only. */
type ExchangeFields = [] | [number | null, number | null, number | null, number | null, number | null, number];

/**
 * The change back, as a new object. `current` finds the row its key holds now somewhere else
 * (the live board): when the unpacked row is that row, field for field, it is returned itself,
 * and otherwise that row's strings are reused where equal, so a delayed board shares objects with
 * the live one instead of holding copies.
 */
export function unpackChange(text: PackedChange, current?: (eventId: string, key: string) => OddsRow | undefined): OddsChange {
  const f = JSON.parse(text) as Fields | [string, string, number];
  const key = f[0];
  const eventId = f[1];
  const changedAt = f[2];
  if (f.length === 3) return { key, eventId, row: null, changedAt };
  const c = current?.(eventId, key);
  if (c !== undefined && sameRow(c, f)) return { key, eventId, row: c, changedAt };
  const row: OddsRow = {
    id: shared(c?.id, f[3]),
    eventId: shared(c?.eventId, f[4]),
    book: shared(c?.book, f[5]),
    market: shared(c?.market, f[6]),
    selection: shared(c?.selection, f[7]),
    line: f[8],
    participant: shared(c?.participant, f[9]),
    statCategory: shared(c?.statCategory, f[10]),
    priceAmerican: f[11],
    priceDecimal: f[12],
    probability: f[13],
    ts: f[14],
    isLive: f[15],
    bookEventId: shared(c?.bookEventId, f[16]),
    selectionId: shared(c?.selectionId, f[17]),
    isActive: f[18],
    suspendedSince: f[19],
    oddsChangedAt: f[20],
    observedAt: f[21],
    ...(f.length === 28 ? { exchange: exchangeOf(f) } : {}),
  };
  return { key, eventId, row, changedAt };
}

function exchangeOf(f: Fields): ExchangeQuote {
  return {
    back: f[22] ?? null,
    backSize: f[23] ?? null,
    lay: f[24] ?? null,
    laySize: f[25] ?? null,
    volume: f[26] ?? null,
    commission: f[27] ?? 0,
  };
}

/** The string the current row already holds when it is equal to the one read back: one copy, not two. */
function shared<T extends string | null>(held: T | undefined, read: T): T {
  return held === read ? held : read;
}

function sameRow(r: OddsRow, f: Fields): boolean {
  return (
    r.ts === f[14] &&
    r.priceAmerican === f[11] &&
    r.isActive === f[18] &&
    r.suspendedSince === f[19] &&
    r.oddsChangedAt === f[20] &&
    r.observedAt === f[21] &&
    sameExchangeQuote(r.exchange, f.length === 28 ? exchangeOf(f) : null) &&
    r.isLive === f[15] &&
    r.priceDecimal === f[12] &&
    r.probability === f[13] &&
    r.line === f[8] &&
    r.id === f[3] &&
    r.eventId === f[4] &&
    r.book === f[5] &&
    r.market === f[6] &&
    r.selection === f[7] &&
    r.participant === f[9] &&
    r.statCategory === f[10] &&
    r.bookEventId === f[16] &&
    r.selectionId === f[17]
  );
}
