import { MARKET_IDS, SELECTION_TYPES } from '../../schemas/index.js';
import type { CanonicalEvent, OddsRow } from '../../schemas/index.js';
import type { Catalog } from '../views/catalog.js';
import { labelRefSchema, nullableNumber, nullableString, sportRefSchema, teamRefSchema } from './common.js';
import { bookRef, leagueRef, marketRef, sportRef, teamName, teamRef } from './refs.js';
import { isoTime } from './common.js';
import { deepLinkPath } from '../deeplinks/index.js';

export const oddsRowSchema = {
  type: 'object',
  required: ['id', 'event_id', 'sportsbook', 'sport', 'league', 'market', 'selection', 'line', 'odds_american', 'odds_decimal', 'probability', 'timestamp', 'event_start_time'],
  properties: {
    id: { type: 'string', description: 'Stable id of the row (event, market, participant, selection, line, sportsbook).' },
    event_id: { type: 'string' },
    sportsbook: { type: 'string' },
    sport: { type: 'string' },
    league: { type: 'string' },
    market: { type: 'string', enum: [...MARKET_IDS] },
    selection: { type: 'string', enum: [...SELECTION_TYPES] },
    line: { ...nullableNumber, description: "Handicap or threshold from the selection's own perspective; null for markets without a line." },
    participant: { ...nullableString, description: 'Player name for player props; home or away for team totals.' },
    player_name: nullableString,
    stat_category: nullableString,
    odds_american: { type: 'integer' },
    odds_decimal: { type: 'number' },
    probability: { type: 'number', description: 'Implied probability of the price, vig included.' },
    timestamp: { type: 'string', format: 'date-time', description: 'When the sportsbook last set or confirmed the price.' },
    event_start_time: { type: 'string', format: 'date-time' },
    is_live: { type: 'boolean' },
    home_team: { type: 'string' },
    away_team: { type: 'string' },
    external_event_id: { ...nullableString, description: "The sportsbook's own event id." },
    selection_id: { ...nullableString, description: "The sportsbook's own selection id, for deep links." },
    deep_link: { ...nullableString, description: 'Resolver path that redirects to the sportsbook (add ?state= for per-state sites); null when the book has no link templates.' },
    home: teamRefSchema,
    away: teamRefSchema,
    sport_ref: sportRefSchema,
    league_ref: labelRefSchema,
    market_ref: labelRefSchema,
    sportsbook_ref: labelRefSchema,
  },
} as const;

export type PublicOdds = Record<string, unknown>;

/** Field names of an odds row, for `fields` projection. */
export const ODDS_FIELDS = Object.keys(oddsRowSchema.properties) as readonly string[];

const { required: _required, ...optionalRow } = oddsRowSchema;

/**
 * An item of `GET /odds`: an odds row (every field optional, since `fields` may project them
 * away), or with `group_by=event` an event group whose `odds` holds the event's rows of the page.
 */
export const oddsListItemSchema = {
  ...optionalRow,
  description: 'An odds row; with group_by=event, an event group (event fields plus `odds`). With `fields`, only the named fields and `id`.',
  properties: {
    ...optionalRow.properties,
    odds: { type: 'array', items: optionalRow, description: 'group_by=event only: the rows of this event on this page.' },
  },
} as const;

/** `GET /odds/best`: the best row of a selection, and how many books quote it. */
export const bestOddsRowSchema = {
  ...oddsRowSchema,
  properties: { ...oddsRowSchema.properties, book_count: { type: 'integer', description: 'Sportsbooks (of those served to the key) quoting this selection.' } },
} as const;

/** A row removed since `since` (suspended or pulled): enough to drop it from a mirror. */
export const removedRowSchema = {
  type: 'object',
  required: ['id', 'event_id', 'sportsbook', 'market', 'removed_at'],
  properties: {
    id: { type: 'string' },
    event_id: { type: 'string' },
    sportsbook: { type: 'string' },
    market: { type: 'string', enum: [...MARKET_IDS] },
    removed_at: { type: 'string', format: 'date-time', description: 'Log time of the removal.' },
  },
} as const;

/** Event fields an odds group carries. */
export function presentGroup(catalog: Catalog, event: CanonicalEvent, odds: PublicOdds[]): PublicOdds {
  return {
    event_id: event.id,
    sport: event.sport,
    league: event.league,
    home_team: teamName(catalog, event.homeTeamId),
    away_team: teamName(catalog, event.awayTeamId),
    event_start_time: isoTime(event.startTime),
    is_live: event.isLive,
    home: teamRef(catalog, event.homeTeamId),
    away: teamRef(catalog, event.awayTeamId),
    sport_ref: sportRef(catalog, event.sport),
    league_ref: leagueRef(catalog, event.league),
    odds,
  };
}

/** Keeps `id` and the named fields. */
export function project(row: PublicOdds, fields: readonly string[]): PublicOdds {
  const out: PublicOdds = { id: row['id'] };
  for (const f of fields) out[f] = row[f];
  return out;
}

/** Selection key shared by every book's row of one outcome: `market:participant:stat:selection:line`, empty parts left out. */
export function selectionKey(row: OddsRow): string {
  const parts: string[] = [row.market];
  if (row.participant !== null) parts.push(row.participant);
  if (row.statCategory !== null) parts.push(row.statCategory);
  parts.push(row.selection);
  if (row.line !== null) parts.push(String(row.line));
  return parts.join(':');
}

export function presentOdds(catalog: Catalog, row: OddsRow, event: CanonicalEvent): PublicOdds {
  return {
    id: row.id,
    event_id: row.eventId,
    sportsbook: row.book,
    sport: event.sport,
    league: event.league,
    market: row.market,
    selection: row.selection,
    line: row.line,
    participant: row.participant,
    player_name: row.market === 'player_prop' ? row.participant : null,
    stat_category: row.statCategory,
    odds_american: row.priceAmerican,
    odds_decimal: row.priceDecimal,
    probability: row.probability,
    timestamp: isoTime(row.ts),
    event_start_time: isoTime(event.startTime),
    is_live: row.isLive,
    home_team: teamName(catalog, event.homeTeamId),
    away_team: teamName(catalog, event.awayTeamId),
    external_event_id: row.bookEventId,
    selection_id: row.selectionId,
    deep_link: deepLinkPath(catalog, row.book, row.id),
    home: teamRef(catalog, event.homeTeamId),
    away: teamRef(catalog, event.awayTeamId),
    sport_ref: sportRef(catalog, event.sport),
    league_ref: leagueRef(catalog, event.league),
    market_ref: marketRef(catalog, row.market),
    sportsbook_ref: bookRef(catalog, row.book),
  };
}
