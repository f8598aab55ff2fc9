import { freshnessBlockSchema, presentFreshnessBlock } from './freshness.js';
import { REGIONS, TIER_NAMES } from '../../schemas/index.js';
import type { LeagueDef, SportsbookDef } from '../../schemas/index.js';
import type { LiveBoard } from '../views/index.js';
import type { Catalog } from '../views/index.js';
import { isoTime, labelRefSchema, nullableInteger, nullableString } from './common.js';
import type { RowOf } from './route-types.js';

/**
 * Reference resources (sports, leagues, sportsbooks): schemas and presenters. Besides SPEC's
 * fields they carry what the reference service's SDKs require: `slug` (the id: ids are already
 * slugs) and `active` (has events with odds now) everywhere, `sport_id` and `country` on
 * leagues, `features` on sportsbooks.
 */

type Counts = ReadonlyMap<string, { events: number; live: number }>;

const slug = { type: 'string', description: 'URL-safe identifier; equal to `id` (ids are slugs).' } as const;
const active = { type: 'boolean', description: 'Has events with odds now (event_count > 0).' } as const;

/** What every reference resource starts with. */
const identity = { id: { type: 'string' }, numerical_id: nullableInteger, name: { type: 'string' }, slug, active } as const;

export const sportSchema = {
  type: 'object',
  required: ['id', 'name', 'slug', 'active', 'leagues', 'event_count', 'live_count'],
  properties: {
    ...identity,
    leagues: { type: 'array', items: { type: 'string' } },
    event_count: { type: 'integer' },
    live_count: { type: 'integer' },
  },
} as const;

export const leagueSchema = {
  type: 'object',
  required: ['id', 'name', 'slug', 'active', 'sport', 'sport_id', 'country', 'event_count', 'live_count'],
  properties: {
    ...identity,
    sport: { type: 'string' },
    sport_id: { type: 'string', description: 'Same as `sport`.' },
    country: { ...nullableString, description: 'ISO 3166-1 alpha-2 country code; null for international competitions.' },
    event_count: { type: 'integer' },
    live_count: { type: 'integer' },
  },
} as const;

export const SPORTSBOOK_FEATURES = ['odds', 'live', 'props'] as const;

export const sportsbookSchema = {
  type: 'object',
  required: [
    'id',
    'name',
    'slug',
    'active',
    'display_name',
    'is_sharp',
    'has_live_odds',
    'has_player_props',
    'regions',
    'features',
    'requires_tier',
    'status',
    'event_count',
    'last_update',
    'unlisted',
    'freshness',
  ],
  properties: {
    id: { type: 'string' },
    numerical_id: nullableInteger,
    name: { type: 'string' },
    slug,
    active: { ...active, description: 'Has events with odds now (status is active).' },
    display_name: { type: 'string' },
    is_sharp: { type: 'boolean' },
    has_live_odds: { type: 'boolean' },
    has_player_props: { type: 'boolean' },
    regions: { type: 'array', items: { type: 'string', enum: [...REGIONS] } },
    features: {
      type: 'array',
      items: { type: 'string', enum: [...SPORTSBOOK_FEATURES] },
      description: 'What the book offers: odds always, live (in-play odds), props (player props).',
    },
    requires_tier: { type: 'string', enum: [...TIER_NAMES] },
    status: { type: 'string', enum: ['active', 'inactive'] },
    event_count: { type: 'integer' },
    last_update: { ...nullableString, format: 'date-time' },
    unlisted: { type: 'boolean' },
    freshness: freshnessBlockSchema,
  },
} as const;

export const teamSchema = {
  type: 'object',
  required: ['id', 'name', 'abbreviation', 'sport', 'leagues', 'aliases', 'event_count', 'live_count'],
  properties: {
    id: { type: 'string' },
    numerical_id: nullableInteger,
    name: { type: 'string' },
    abbreviation: nullableString,
    sport: { type: 'string' },
    leagues: { type: 'array', items: { type: 'string' } },
    aliases: { type: 'array', items: { type: 'string' } },
    event_count: { type: 'integer' },
    live_count: { type: 'integer' },
    sport_ref: labelRefSchema,
  },
} as const;

export type PublicSport = RowOf<'/api/v1/sports'>;
export type PublicLeague = RowOf<'/api/v1/leagues'>;
export type PublicSportsbook = RowOf<'/api/v1/sportsbooks'>;

export function presentSport(catalog: Catalog, id: string, counts: Counts): PublicSport | undefined {
  const s = catalog.sports.get(id);
  if (!s) return undefined;
  const c = counts.get(id);
  const events = c?.events ?? 0;
  return {
    id: s.id,
    numerical_id: s.numericalId,
    name: s.name,
    slug: s.id,
    active: events > 0,
    leagues: catalog.leaguesOf(s.id),
    event_count: events,
    live_count: c?.live ?? 0,
  };
}

export function presentLeague(l: LeagueDef, counts: Counts): PublicLeague {
  const events = counts.get(l.id)?.events ?? 0;
  return {
    id: l.id,
    numerical_id: l.numericalId,
    name: l.name,
    slug: l.id,
    active: events > 0,
    sport: l.sport,
    sport_id: l.sport,
    country: l.country ?? null,
    event_count: events,
    live_count: counts.get(l.id)?.live ?? 0,
  };
}

export function presentBook(board: LiveBoard, b: SportsbookDef): PublicSportsbook {
  const events = board.bookEventCount(b.id);
  const last = board.bookLastUpdateAt(b.id);
  return {
    id: b.id,
    numerical_id: b.numericalId,
    name: b.name,
    slug: b.id,
    active: events > 0,
    display_name: b.displayName,
    is_sharp: b.isSharp,
    has_live_odds: b.hasLiveOdds,
    has_player_props: b.hasPlayerProps,
    regions: [...b.regions],
    features: SPORTSBOOK_FEATURES.filter((f) => f === 'odds' || (f === 'live' && b.hasLiveOdds) || (f === 'props' && b.hasPlayerProps)),
    requires_tier: b.requiresTier,
    status: events > 0 ? 'active' : 'inactive',
    event_count: events,
    last_update: last === null ? null : isoTime(last),
    unlisted: b.unlisted,
    freshness: presentFreshnessBlock(board.freshness.bookReport(b.id)),
  };
}
