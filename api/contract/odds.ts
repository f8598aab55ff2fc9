import { MARKET_IDS, SELECTION_TYPES } from '../../schemas/index.js';
import type { CanonicalEvent, ExchangeQuote, OddsRow } from '../../schemas/index.js';
import type { Catalog } from '../views/index.js';
import { labelRefSchema, nullableNumber, nullableString, sportRefSchema, teamRefSchema } from './common.js';
import { bookRef, eventName, leagueRef, marketRef, marketType, selectionLabel, sportRef, teamName, teamRef } from './refs.js';
import { isMainLine } from '../views/index.js';
import type { MainLines } from '../views/index.js';
import { ApiError } from '../errors.js';
import { isoTime, whenKnown } from './common.js';
import { outcomeKey } from '../views/index.js';
import { deepLinkUrl } from '../deeplinks/index.js';
import type { RowOf } from './route-types.js';

export const oddsRowSchema = {
  type: 'object',
  required: [
    'id',
    'event_id',
    'sportsbook',
    'sportsbook_name',
    'sport',
    'league',
    'home_team',
    'away_team',
    'market',
    'market_type',
    'selection',
    'selection_type',
    'line',
    'odds_american',
    'odds_decimal',
    'probability',
    'odds_probability',
    'timestamp',
    'odds_changed_at',
    'observed_at',
    'event_start_time',
    'is_live',
    'is_active',
    'suspended_since',
    'is_main_line',
    'is_alternate_line',
  ],
  properties: {
    id: { type: 'string', description: 'Stable id of the row (event, market, participant, selection, line, sportsbook).' },
    event_id: { type: 'string' },
    sportsbook: { type: 'string' },
    sportsbook_name: { type: 'string', description: "The sportsbook's display name." },
    sport: { type: 'string' },
    league: { type: 'string' },
    market: {
      type: 'string',
      enum: [...MARKET_IDS],
      description: 'Market id (player props are one market, player_prop, with stat_category).',
    },
    market_type: {
      type: 'string',
      description: 'The market as the reference service names it: the market id, or player_<stat> for player props (player_points).',
    },
    selection: {
      type: 'string',
      description: 'Display label: the team name for sides, Draw, Over/Under, Yes/No; team totals and props prefix the team or player.',
    },
    selection_type: {
      type: 'string',
      enum: [...SELECTION_TYPES],
      description: 'The canonical side: home, away, draw, over, under, yes, no.',
    },
    line: {
      ...nullableNumber,
      description: "Handicap or threshold from the selection's own perspective; null for markets without a line.",
    },
    participant: { ...nullableString, description: 'Player name for player props; home or away for team totals.' },
    player_name: nullableString,
    stat_category: nullableString,
    odds_american: { type: 'integer' },
    odds_decimal: { type: 'number' },
    probability: { type: 'number', description: 'Implied probability of the price, vig included.' },
    odds_probability: { type: 'number', description: 'Same as probability (the name some reference pages and stream deltas use).' },
    timestamp: { type: 'string', format: 'date-time', description: 'When the sportsbook last set or confirmed the price.' },
    odds_changed_at: {
      type: 'string',
      format: 'date-time',
      description: 'When the sportsbook last moved the price; a confirmation of the same price keeps it. Never after timestamp.',
    },
    observed_at: {
      type: 'string',
      format: 'date-time',
      description: 'When our feed saw the price as of timestamp (for a polled source, the poll that brought it).',
    },
    event_start_time: { type: 'string', format: 'date-time' },
    is_live: { type: 'boolean' },
    is_active: {
      type: 'boolean',
      description:
        'False while the sportsbook has the price suspended: the row stays with its last price frozen (it cannot be bet; /odds/best, comparisons and opportunities leave it out) until the book reopens the line. A pulled line leaves the board instead.',
    },
    suspended_since: {
      type: ['string', 'null'],
      format: 'date-time',
      description: 'When the sportsbook suspended the price; null while the row is active.',
    },
    is_main_line: {
      type: 'boolean',
      description: 'The line most books quote for this outcome family (home side for handicaps); markets without a line are always main.',
    },
    is_alternate_line: { type: 'boolean', description: 'Not the main line.' },
    home_team: { type: 'string' },
    away_team: { type: 'string' },
    external_event_id: { ...nullableString, description: "The sportsbook's own event id." },
    selection_id: { type: 'string', description: "The sportsbook's own selection id, for deep links; absent when the book gives none." },
    deep_link: {
      type: 'string',
      description:
        'Resolver URL on this service (absolute, PUBLIC_BASE_URL) that redirects to the sportsbook (add ?state= for per-state sites); absent when the book has no link templates.',
    },
    home: teamRefSchema,
    away: teamRefSchema,
    sport_ref: sportRefSchema,
    league_ref: labelRefSchema,
    market_ref: labelRefSchema,
    sportsbook_ref: labelRefSchema,
    back: {
      ...nullableNumber,
      description:
        'Exchanges only (absent on sportsbook rows): best price available to back, decimal, before commission; null when nothing is offered. odds_* are this price net of commission.',
    },
    lay: { ...nullableNumber, description: 'Exchanges only: best price available to lay, decimal; null when nothing is offered.' },
    max_bet: {
      ...nullableNumber,
      description:
        "Exchanges only: the money waiting at the back price, in the market's currency (the most a back bet there is matched for).",
    },
    max_lay: {
      ...nullableNumber,
      description:
        "Exchanges only: the backers' stake waiting at the lay price, in the market's currency (the most a lay bet there is matched for).",
    },
    volume: { ...nullableNumber, description: "Exchanges only: money traded on this selection so far, in the market's currency." },
    commission: {
      type: 'number',
      description:
        "Exchanges only: commission on net winnings, percent (the market's base rate unless the operator set the account's rate).",
    },
  },
} as const;

/** An odds row as every route answering with `oddsRowSchema` sends it. */
export type PublicOdds = RowOf<'/api/v1/events/{eventId}/odds'>;
/** An item of `GET /odds`: a row, a projection of one (`fields`), or an event group (`group_by=event`). */
export type OddsListItem = RowOf<'/api/v1/odds'>;
export type OddsField = keyof PublicOdds;

const isOddsField = (name: string): name is OddsField => Object.hasOwn(oddsRowSchema.properties, name);

/** Field names of an odds row, for `fields` projection. */
export const ODDS_FIELDS: readonly OddsField[] = Object.keys(oddsRowSchema.properties).filter(isOddsField);

const { required: _required, ...optionalRow } = oddsRowSchema;

/**
 * An item of `GET /odds`: an odds row (every field optional, since `fields` may project them
 * away), or with `group_by=event` an event group whose `odds` holds the event's rows of the page.
 */
export const oddsListItemSchema = {
  ...optionalRow,
  description:
    'An odds row; with group_by=event, an event group (event fields plus `odds`). With `fields`, only the named fields and `id`.',
  properties: {
    ...optionalRow.properties,
    odds: { type: 'array', items: optionalRow, description: 'group_by=event only: the rows of this event on this page.' },
    event_name: { type: 'string', description: 'group_by=event only: Away @ Home.' },
    start_time: { type: 'string', format: 'date-time', description: 'group_by=event only: same as event_start_time.' },
  },
} as const;

/** `GET /odds/best`: the best row of a selection, and how many books quote it. */
export const bestOddsRowSchema = {
  ...oddsRowSchema,
  properties: {
    ...oddsRowSchema.properties,
    book_count: { type: 'integer', description: 'Sportsbooks (of those served to the key) quoting this selection.' },
  },
} as const;

/** A row removed since `since` (pulled, or out of the filter): enough to drop it from a mirror. */
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
export function presentGroup(catalog: Catalog, event: CanonicalEvent, odds: Partial<PublicOdds>[]): OddsListItem {
  return {
    event_id: event.id,
    event_name: eventName(catalog, event),
    sport: event.sport,
    league: event.league,
    home_team: teamName(catalog, event.homeTeamId),
    away_team: teamName(catalog, event.awayTeamId),
    event_start_time: isoTime(event.startTime),
    start_time: isoTime(event.startTime),
    is_live: event.isLive,
    home: teamRef(catalog, event.homeTeamId),
    away: teamRef(catalog, event.awayTeamId),
    sport_ref: sportRef(catalog, event.sport),
    league_ref: leagueRef(catalog, event.league),
    odds,
  };
}

/**
 * Fields `fields=` keeps unless a `-name` drops them: the ones clients of the reference service
 * cannot do without (its SDK refuses a row lacking any), and `id`, which is never dropped.
 */
export const CORE_ODDS_FIELDS = [
  'id',
  'sportsbook',
  'event_id',
  'sport',
  'league',
  'home_team',
  'away_team',
  'market_type',
  'selection',
  'odds_american',
  'odds_decimal',
  'probability',
] as const;

/** A parsed `fields=`: which fields a row keeps, in schema order. */
export type Projection = readonly OddsField[];

/**
 * `fields=a,b,-c`: the core fields plus a and b, minus c (`id` stays). Only `-` entries: every
 * field but those. Unknown names are 400 listing the valid ones.
 */
export function parseFields(value: string | undefined): Projection | null {
  if (value === undefined) return null;
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (items.length === 0) return null;
  const add = new Set<OddsField>();
  const drop = new Set<OddsField>();
  for (const item of items) {
    const name = item.startsWith('-') ? item.slice(1) : item;
    if (!isOddsField(name))
      throw new ApiError(
        'invalid_request',
        `Invalid query parameter 'fields': unknown field '${name}' (fields: ${ODDS_FIELDS.join(', ')})`,
      );
    (item.startsWith('-') ? drop : add).add(name);
  }
  const base = add.size === 0 ? ODDS_FIELDS : [...CORE_ODDS_FIELDS, ...add];
  const keep = new Set(base.filter((f) => f === 'id' || !drop.has(f)));
  return ODDS_FIELDS.filter((f) => keep.has(f));
}

export function project(row: PublicOdds, fields: Projection): Partial<PublicOdds> {
  const out: Partial<PublicOdds> = {};
  for (const f of fields) if (row[f] !== undefined) copyField(out, row, f);
  return out;
}

function copyField<K extends OddsField>(to: Partial<PublicOdds>, from: PublicOdds, field: K): void {
  to[field] = from[field];
}

/** Selection key shared by every book's row of one outcome: `market:participant:stat:selection:line`, empty parts left out. */
export function selectionKey(row: OddsRow): string {
  return outcomeKey(row);
}

/**
 * A row of the contract. `main` is the event's main lines (LiveBoard.mainLines); without it
 * every row counts as main.
 */
export function presentOdds(catalog: Catalog, row: OddsRow, event: CanonicalEvent, main?: MainLines): PublicOdds {
  const isMain = main === undefined || isMainLine(main, row);
  return {
    id: row.id,
    event_id: row.eventId,
    sportsbook: row.book,
    sportsbook_name: catalog.books.get(row.book)?.displayName ?? row.book,
    sport: event.sport,
    league: event.league,
    market: row.market,
    market_type: marketType(row.market, row.statCategory),
    selection: selectionLabel(catalog, event, row.market, row.participant, row.selection),
    selection_type: row.selection,
    line: row.line,
    participant: row.participant,
    player_name: row.market === 'player_prop' ? row.participant : null,
    stat_category: row.statCategory,
    odds_american: row.priceAmerican,
    odds_decimal: row.priceDecimal,
    probability: row.probability,
    odds_probability: row.probability,
    timestamp: isoTime(row.ts),
    odds_changed_at: isoTime(row.oddsChangedAt),
    observed_at: isoTime(row.observedAt),
    event_start_time: isoTime(event.startTime),
    is_live: row.isLive,
    is_active: row.isActive,
    suspended_since: row.suspendedSince === null ? null : isoTime(row.suspendedSince),
    is_main_line: isMain,
    is_alternate_line: !isMain,
    home_team: teamName(catalog, event.homeTeamId),
    away_team: teamName(catalog, event.awayTeamId),
    external_event_id: row.bookEventId,
    ...whenKnown('selection_id', row.selectionId),
    ...whenKnown('deep_link', deepLinkUrl(catalog, row.book, row.id)),
    home: teamRef(catalog, event.homeTeamId),
    away: teamRef(catalog, event.awayTeamId),
    sport_ref: sportRef(catalog, event.sport),
    league_ref: leagueRef(catalog, event.league),
    market_ref: marketRef(catalog, row.market),
    sportsbook_ref: bookRef(catalog, row.book),
    ...(row.exchange == null ? {} : exchangeFields(row.exchange)),
  };
}

/** The fields an exchange's row adds; a sportsbook's row has none of them (absent, not null). */
function exchangeFields(q: ExchangeQuote): Pick<PublicOdds, 'back' | 'lay' | 'max_bet' | 'max_lay' | 'volume' | 'commission'> {
  return { back: q.back, lay: q.lay, max_bet: q.backSize, max_lay: q.laySize, volume: q.volume, commission: q.commission };
}
