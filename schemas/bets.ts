import type { ClosingDevigMethod } from './closing.js';
import type { MarketId, SelectionType } from './markets.js';

/**
 * The bet ledger: bets an account logged on selections we price, graded against the close when
 * the event starts and settled on the final game state. Bets are rare and human-made, so they
 * travel like API keys: a row in `bets` (ClickHouse) first, then the compacted `bets` topic that
 * every API replica follows.
 */

/** How a settled bet ended. Quarter (Asian) lines split the stake: half won or lost, half pushed. */
export const BET_RESULTS = ['win', 'loss', 'push', 'void', 'half_win', 'half_loss', 'dead_heat'] as const;
export type BetResult = (typeof BET_RESULTS)[number];

/** One logged bet, as every replica holds it (topic `bets`, table `bets`). */
export interface BetRecord {
  id: string;
  accountId: string;
  eventId: string;
  sport: string;
  league: string;
  eventStartTime: number;
  market: MarketId;
  participant: string | null;
  statCategory: string | null;
  selection: SelectionType;
  /** From the selection's own perspective, as quoted (null for moneylines). */
  line: number | null;
  book: string;
  priceAmerican: number;
  priceDecimal: number;
  stake: number;
  placedAt: number;
  /** The odds row or opportunity the bet was copied from; null when entered by hand. */
  sourceId: string | null;
  /** The grading recipe the account chose: de-vig method and sharp book (null: the closing references). */
  devigMethod: ClosingDevigMethod;
  sharpBook: string | null;
  createdAt: number;
  /** Set once deleted: the record stays (with a higher version) so every replica drops it. */
  deletedAt: number | null;
  /** Monotonic per bet: a replica keeps the highest version it has seen. */
  version: number;
}
