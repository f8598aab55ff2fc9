import type { ExchangeQuote } from './exchange.js';
import type { MarketId, SelectionType } from './markets.js';

/** Latest price of one (event, market, participant, selection, line, book). */
export interface OddsRow {
  /** Stable id of the row key (hash), so clients can diff. */
  id: string;
  eventId: string;
  book: string;
  market: MarketId;
  selection: SelectionType;
  line: number | null;
  participant: string | null;
  statCategory: string | null;
  priceAmerican: number;
  priceDecimal: number;
  /** Implied probability of the price, vig included. */
  probability: number;
  /** When the book last set or confirmed the price, epoch ms. */
  ts: number;
  /** When the book last changed the price (a confirmation keeps it), epoch ms; never after `ts`. */
  oddsChangedAt: number;
  /** When our feed saw the price as of `ts`, epoch ms. */
  observedAt: number;
  isLive: boolean;
  bookEventId: string;
  selectionId: string | null;
  /**
   * False while the book has the price suspended: the row stays on the board with its last price
   * frozen (clients see it locked), but nobody can bet it, so nothing is computed from it.
   */
  isActive: boolean;
  /** When the book suspended it (the suspension's own time, epoch ms); null while active. */
  suspendedSince: number | null;
  /**
   * Exchange books only (absent or null on a sportsbook's row): the back and lay sides, the sizes
   * at the best prices, traded volume and commission. `priceAmerican`, `priceDecimal` and
   * `probability` are the back price net of commission.
   */
  exchange?: ExchangeQuote | null;
}

/**
 * Snapshot changelog record, topic `odds.snapshot` (compacted). The record key is the row key
 * (what compaction keeps the latest of); the partition is chosen by `eventId` like every
 * post-normalizer topic. `row: null` is the tombstone of a removed (pulled) row; a suspended
 * row stays, with `isActive: false`.
 */
export interface OddsChange {
  key: string;
  eventId: string;
  row: OddsRow | null;
  /** Processing time of the change, epoch ms; also the time a delta poll compares against. */
  changedAt: number;
}

/** Row fields added after the first changelog records were written. */
type LaterRowFields = 'isActive' | 'suspendedSince' | 'oddsChangedAt' | 'observedAt';

/**
 * A changelog record as this version reads it: records written before `isActive` and
 * `suspendedSince` existed (JSON on Kafka, or a replayed changelog) are active rows; before
 * `oddsChangedAt` and `observedAt`, the only time known is `ts`, so both read as it (Avro readers
 * get null for those two, which reads the same).
 */
export function upgradeOddsChange(change: OddsChange): OddsChange {
  const row = change.row as (Omit<OddsRow, LaterRowFields> & { [K in LaterRowFields]?: OddsRow[K] | null }) | null;
  if (row === null) return change;
  if (row.isActive != null && row.suspendedSince !== undefined && row.oddsChangedAt != null && row.observedAt != null) return change;
  return {
    ...change,
    row: {
      ...row,
      isActive: row.isActive ?? true,
      suspendedSince: row.suspendedSince ?? null,
      oddsChangedAt: row.oddsChangedAt ?? row.ts,
      observedAt: row.observedAt ?? row.ts,
    },
  };
}

/**
 * The row a consumer that prices from the board sees (the opportunity engines, closing lines):
 * null when the row was removed or is suspended, since a suspended price cannot be bet.
 */
export function bettableRow(change: OddsChange): OddsRow | null {
  const row = change.row;
  return row !== null && row.isActive !== false ? row : null;
}
