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

/**
 * Event lifecycle (docs/api.md, "Event status"): `upcoming` -> `live` -> `final`, or `upcoming`
 * -> `postponed` / `cancelled`. `final`, `postponed` and `cancelled` are terminal: odds are
 * suspended and opportunities expire with reason `event_closed`.
 */
export const EVENT_STATUSES = ['upcoming', 'live', 'final', 'postponed', 'cancelled'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

const CLOSED: ReadonlySet<EventStatus> = new Set<EventStatus>(['final', 'postponed', 'cancelled']);

/** Whether the event is over for betting purposes (final, postponed or cancelled). */
export function isClosedStatus(status: EventStatus): boolean {
  return CLOSED.has(status);
}
