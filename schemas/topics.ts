/** Topic names, one place. Every post-normalizer topic is keyed by canonical event id. */
export const TOPICS = {
  rawTicks: 'odds.ticks.raw',
  ticks: 'odds.ticks',
  events: 'events',
  snapshot: 'odds.snapshot',
  opportunities: 'opportunities',
} as const;
export type TopicName = (typeof TOPICS)[keyof typeof TOPICS];
