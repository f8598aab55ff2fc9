import type { CanonicalEvent } from './events.js';
import type { OddsChange } from './odds.js';
import type { Opportunity } from './opportunities.js';
import type { OddsTick, RawTick } from './ticks.js';

/**
 * Topic names, one place. Raw ticks are partitioned by league (event matching needs every
 * book's listings of a league in one place); every post-normalizer topic by canonical event id.
 */
export const TOPICS = {
  rawTicks: 'odds.ticks.raw',
  ticks: 'odds.ticks',
  events: 'events',
  snapshot: 'odds.snapshot',
  /** Compacted, keyed by opportunity id, partitioned by event id; tombstone on expiry. */
  opportunities: 'opportunities',
  /** Records a consumer could not decode, with the reason; kept for an operator to look at. */
  deadLetter: 'dead-letter',
} as const;
export type TopicName = (typeof TOPICS)[keyof typeof TOPICS];

/** The value type carried by each topic. */
export interface TopicValues {
  'odds.ticks.raw': RawTick;
  'odds.ticks': OddsTick;
  events: CanonicalEvent;
  'odds.snapshot': OddsChange;
  opportunities: Opportunity;
  'dead-letter': DeadLetter;
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
};
