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
  isLive: boolean;
  bookEventId: string;
  selectionId: string | null;
}

/**
 * Snapshot changelog record, topic `odds.snapshot` (compacted). The record key is the row key
 * (what compaction keeps the latest of); the partition is chosen by `eventId` like every
 * post-normalizer topic. `row: null` is the tombstone of a removed (suspended or pulled) row.
 */
export interface OddsChange {
  key: string;
  eventId: string;
  row: OddsRow | null;
  /** Processing time of the change, epoch ms; also the time a delta poll compares against. */
  changedAt: number;
}
