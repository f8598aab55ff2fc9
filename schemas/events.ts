/**
 * A canonical event: one real-world game, whatever the number of books that list it.
 * Topic `events` (compacted), keyed by `id`.
 */
export interface CanonicalEvent {
  id: string;
  sport: string;
  league: string;
  /** Catalog team ids. */
  homeTeamId: string;
  awayTeamId: string;
  /** Epoch ms. */
  startTime: number;
  status: EventStatus;
  isLive: boolean;
  /** Sportsbook id -> that book's own event id. */
  externalIds: Record<string, string>;
  /** Epoch ms of the last change to this record. */
  updatedAt: number;
}

export const EVENT_STATUSES = ['upcoming', 'live', 'ended'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];
