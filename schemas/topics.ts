import type { AccountChange } from './accounts.js';
import type { BetRecord } from './bets.js';
import type { CanonicalEvent } from './events.js';
import type { FuturesMarket, FuturesQuote } from './futures.js';
import type { GameState, RawGameState } from './gamestate.js';
import type { OddsChange } from './odds.js';
import type { Opportunity } from './opportunities.js';
import type { FeedRecord, SplitsSnapshot } from './splits.js';
import type { OddsTick } from './ticks.js';

/**
 * Topic names, one place. Raw ticks are partitioned by league (event matching needs every
 * book's listings of a league in one place); every post-normalizer topic by canonical event id.
 */
export const TOPICS = {
  rawTicks: 'odds.ticks.raw',
  ticks: 'odds.ticks',
  /** Compacted by event id; a tombstone when the normalizer evicts the event (a day after its start). */
  events: 'events',
  snapshot: 'odds.snapshot',
  /** Compacted, keyed by opportunity id, partitioned by event id; tombstone on expiry. */
  opportunities: 'opportunities',
  /** Records a consumer could not decode, with the reason; kept for an operator to look at. */
  deadLetter: 'dead-letter',
  /** Compacted, keyed `account:<id>` / `key:<id>`: every API replica materialises it (api/accounts). */
  accounts: 'accounts',
  /**
   * Compacted, keyed by `${eventId}|${book}`, partitioned by event id: each book's splits
   * snapshots joined to the event and the book's line. `odds.ticks.raw` carries the raw splits.
   */
  splits: 'splits',
  /** Game state in a book's vocabulary, partitioned by league like raw ticks. */
  rawGameState: 'gamestate.raw',
  /** Game state on canonical events; compacted by event id, tombstone once the event left the board. */
  gameState: 'gamestate',
  /** Futures boards on canonical markets: compacted, keyed `${futureId}|${book}`, partitioned by future id. */
  futures: 'futures',
  /** Each futures market's fair line and +EV, compacted by future id (the futures processor's output). */
  futuresMarkets: 'futures.markets',
  /** Compacted, keyed `bet:<id>`: the bet ledger, which every API replica materialises like `accounts` (api/bets). */
  bets: 'bets',
} as const;
export type TopicName = (typeof TOPICS)[keyof typeof TOPICS];

/** The value type carried by each topic. */
export interface TopicValues {
  /** The feed's records: ticks, and splits from feeds that have them. */
  'odds.ticks.raw': FeedRecord;
  'odds.ticks': OddsTick;
  events: CanonicalEvent;
  'odds.snapshot': OddsChange;
  opportunities: Opportunity;
  'dead-letter': DeadLetter;
  accounts: AccountChange;
  splits: SplitsSnapshot;
  'gamestate.raw': RawGameState;
  gamestate: GameState;
  futures: FuturesQuote;
  'futures.markets': FuturesMarket;
  bets: BetRecord;
}

/** A record that could not be decoded, as it was on the wire (base64), and why. */
export interface DeadLetter {
  topic: string;
  partition: number;
  offset: number;
  key: string;
  reason: string;
  payloadBase64: string | null;
  at: number;
}

export interface TopicConfig {
  partitions: number;
  /** Compacted topics keep the latest value per key forever (null deletes); others are trimmed. */
  compacted: boolean;
}

export const TOPIC_CONFIGS: Record<TopicName, TopicConfig> = {
  'odds.ticks.raw': { partitions: 4, compacted: false },
  'odds.ticks': { partitions: 4, compacted: false },
  events: { partitions: 4, compacted: true },
  'odds.snapshot': { partitions: 4, compacted: true },
  opportunities: { partitions: 4, compacted: true },
  'dead-letter': { partitions: 1, compacted: false },
  // One partition: key changes are rare and every replica reads them all, in order.
  accounts: { partitions: 1, compacted: true },
  splits: { partitions: 4, compacted: true },
  'gamestate.raw': { partitions: 4, compacted: false },
  gamestate: { partitions: 4, compacted: true },
  futures: { partitions: 4, compacted: true },
  'futures.markets': { partitions: 4, compacted: true },
  // One partition, like `accounts`: bets are logged by hand, and every replica reads them all.
  bets: { partitions: 1, compacted: true },
};
