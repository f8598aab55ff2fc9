import { EVENT_STATUSES } from '../../schemas/index.js';
import type { CanonicalEvent } from '../../schemas/index.js';
import type { Catalog } from '../views/index.js';
import type { LiveBoard } from '../views/index.js';
import { isoTime, labelRefSchema, sportRefSchema, teamRefSchema } from './common.js';
import { leagueRef, sportRef, teamName, teamRef } from './refs.js';
import type { RowOf } from './route-types.js';

export const eventSchema = {
  type: 'object',
  required: [
    'id',
    'external_ids',
    'sport',
    'league',
    'home_team',
    'away_team',
    'start_time',
    'status',
    'is_live',
    'book_count',
    'markets',
    'books',
  ],
  properties: {
    id: { type: 'string' },
    external_ids: { type: 'object', additionalProperties: { type: 'string' }, description: "Sportsbook id -> that book's own event id." },
    sport: { type: 'string' },
    league: { type: 'string' },
    home_team: { type: 'string' },
    away_team: { type: 'string' },
    start_time: { type: 'string', format: 'date-time' },
    status: { type: 'string', enum: [...EVENT_STATUSES] },
    is_live: { type: 'boolean' },
    book_count: { type: 'integer' },
    markets: { type: 'array', items: { type: 'string' } },
    books: { type: 'array', items: { type: 'string' } },
    home: teamRefSchema,
    away: teamRefSchema,
    sport_ref: sportRefSchema,
    league_ref: labelRefSchema,
  },
} as const;

export type PublicEvent = RowOf<'/api/v1/events'>;

/**
 * An event as the API shows it. `visibleBooks` are the sportsbooks the key's tier may see:
 * `books`, `book_count` and `external_ids` name no other (a free key must not learn which
 * other books list the game). Absent: every book.
 */
export function presentEvent(catalog: Catalog, board: LiveBoard, e: CanonicalEvent, visibleBooks?: ReadonlySet<string>): PublicEvent {
  const books = visibleBooks ? board.booksOf(e.id).filter((b) => visibleBooks.has(b)) : board.booksOf(e.id);
  const externalIds = visibleBooks ? Object.fromEntries(Object.entries(e.externalIds).filter(([b]) => visibleBooks.has(b))) : e.externalIds;
  return {
    id: e.id,
    external_ids: externalIds,
    sport: e.sport,
    league: e.league,
    home_team: teamName(catalog, e.homeTeamId),
    away_team: teamName(catalog, e.awayTeamId),
    start_time: isoTime(e.startTime),
    status: e.status,
    is_live: e.isLive,
    book_count: books.length,
    markets: board.marketsOf(e.id),
    books,
    home: teamRef(catalog, e.homeTeamId),
    away: teamRef(catalog, e.awayTeamId),
    sport_ref: sportRef(catalog, e.sport),
    league_ref: leagueRef(catalog, e.league),
  };
}
