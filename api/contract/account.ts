import type { AccountRecord, ApiKeyRecord } from '../../schemas/index.js';
import { keyStatus } from '../accounts/index.js';
import type { AuthenticatedKey } from '../accounts/index.js';
import { TIERS, accountFeatures } from '../../schemas/index.js';
import { isoTime, nullableString } from './common.js';
import { commissionParam } from './filters.js';
import type { ReplyOf, RowOf } from './route-types.js';

/** Response schemas and presenters of the /account routes. */

const dateTime = { type: 'string', format: 'date-time' } as const;
const nullableDateTime = { type: ['string', 'null'], format: 'date-time' } as const;

/** The account as `/account` answers it. */
type AccountInfo = ReplyOf<'/api/v1/account'>['data'];

/** `max_books` stands for "all" with 999, as the reference does. */
const UNLIMITED_BOOKS = 999;

export const apiKeySchema = {
  type: 'object',
  required: ['id', 'id_masked', 'name', 'tier', 'is_active', 'status', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'string', description: 'The key-store id (not the secret): use it to revoke or rotate.' },
    id_masked: { type: 'string', description: "The secret's prefix and last four characters." },
    name: nullableString,
    tier: { type: 'string' },
    is_active: { type: 'boolean', description: 'Whether the key is accepted now (true during a rotation grace period).' },
    status: { type: 'string', enum: ['active', 'grace', 'expired', 'revoked'] },
    is_current: { type: 'boolean', description: 'This is the key that sent the request.' },
    created_at: dateTime,
    updated_at: dateTime,
    expires_at: { ...nullableDateTime, description: 'End of the grace period of a rotated key; null otherwise.' },
    revoked_at: nullableDateTime,
    replaced_by: { ...nullableString, description: 'The key that replaced this one in a rotation.' },
  },
} as const;

/** A key as listed: never the secret. */
export function presentKey(k: ApiKeyRecord, now: number, current?: string): RowOf<'/api/v1/account/keys'> {
  const status = keyStatus(k, now);
  return {
    id: k.id,
    id_masked: k.preview,
    name: k.name,
    tier: k.tier,
    is_active: status === 'active' || status === 'grace',
    status,
    is_current: k.id === current,
    created_at: isoTime(k.createdAt),
    updated_at: isoTime(k.updatedAt),
    expires_at: k.expiresAt === null ? null : isoTime(k.expiresAt),
    revoked_at: k.revokedAt === null ? null : isoTime(k.revokedAt),
    replaced_by: k.replacedBy,
  };
}

export const newKeySchema = {
  type: 'object',
  required: ['id', 'key', 'name', 'tier'],
  properties: {
    id: { type: 'string' },
    key: { type: 'string', description: 'The secret. Shown this once: it cannot be read again.' },
    name: nullableString,
    tier: { type: 'string' },
    id_masked: { type: 'string' },
    created_at: dateTime,
  },
} as const;

export function presentNewKey(k: ApiKeyRecord, secret: string): ReplyOf<'/api/v1/account/keys', 'post', 201>['data'] {
  return { id: k.id, key: secret, name: k.name, tier: k.tier, id_masked: k.preview, created_at: isoTime(k.createdAt) };
}

export const accountSchema = {
  type: 'object',
  required: [
    'key_id',
    'account_id',
    'tier',
    'rate_limit',
    'features',
    'feature_list',
    'streaming',
    'limits',
    'data_delay_seconds',
    'key',
    'add_ons',
    'exchange_commission',
  ],
  properties: {
    key_id: { type: 'string', description: 'The key that sent the request.' },
    account_id: { type: 'string' },
    account_name: nullableString,
    tier: { type: 'string', enum: Object.keys(TIERS) },
    rate_limit: {
      type: 'object',
      required: ['requests_per_minute', 'max_books'],
      properties: { requests_per_minute: { type: 'integer' }, max_books: { type: 'integer', description: '999 = all sportsbooks.' } },
    },
    features: {
      type: 'array',
      items: { type: 'string' },
      description:
        'The features this tier is served, by name: odds, schedule, splits, ev, arbitrage, middles, low_hold, deep_links, game_state, streaming, futures, closing_line, history.',
    },
    feature_list: { type: 'array', items: { type: 'string' }, description: 'Same as features.' },
    streaming: {
      type: 'object',
      required: ['enabled', 'max_connections'],
      properties: { enabled: { type: 'boolean' }, max_connections: { type: 'integer', description: '0 when streaming is not included.' } },
    },
    limits: {
      type: 'object',
      required: ['requests_per_minute', 'max_streams', 'odds_delay_seconds', 'max_books', 'batch_events', 'max_keys'],
      properties: {
        requests_per_minute: { type: 'integer' },
        max_streams: { type: 'integer' },
        odds_delay_seconds: { type: 'integer' },
        max_books: { type: 'integer', description: '999 = all sportsbooks.' },
        batch_events: { type: 'integer' },
        max_keys: { type: 'integer' },
      },
    },
    data_delay_seconds: { type: 'integer', description: 'How far behind real time the odds are for this tier (X-Data-Delay).' },
    key: apiKeySchema,
    add_ons: {
      type: 'array',
      items: { type: 'string' },
      description: 'Always empty: this service has no add-ons; tiers carry everything.',
    },
    exchange_commission: {
      type: ['number', 'null'],
      description:
        "The account's own exchange commission rate, percent (set with PATCH /account): the rate every answer prices exchange legs at when a request gives no `commission`. Null: the exchange's base rate.",
    },
  },
} as const;

/** The body of PATCH /account: the account's preferences, each set by value and cleared by null. */
export const accountPreferencesSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['exchange_commission'],
  properties: {
    exchange_commission: {
      type: ['number', 'null'],
      minimum: commissionParam.minimum,
      exclusiveMaximum: commissionParam.exclusiveMaximum,
      description:
        "Your exchange commission rate, percent (0 to under 100): answers on every interface price exchange legs at it when a request gives no `commission`. Null clears it (the exchange's base rate again).",
    },
  },
} as const;

export function presentAccount(auth: AuthenticatedKey, key: ApiKeyRecord, account: AccountRecord | undefined, now: number): AccountInfo {
  const t = TIERS[auth.tier];
  const requestsPerMinute = auth.requestsPerMinute ?? t.requestsPerMinute;
  const maxBooks = t.maxSportsbooks ?? UNLIMITED_BOOKS;
  const features = accountFeatures(auth.tier);
  return {
    key_id: auth.keyId,
    account_id: auth.accountId,
    account_name: account?.name ?? null,
    tier: auth.tier,
    rate_limit: { requests_per_minute: requestsPerMinute, max_books: maxBooks },
    features,
    feature_list: features,
    streaming: { enabled: t.maxStreams > 0, max_connections: t.maxStreams },
    limits: {
      requests_per_minute: requestsPerMinute,
      max_streams: t.maxStreams,
      odds_delay_seconds: t.dataDelaySeconds,
      max_books: maxBooks,
      batch_events: t.batchEvents,
      max_keys: t.maxKeys,
    },
    data_delay_seconds: t.dataDelaySeconds,
    key: presentKey(key, now, auth.keyId),
    add_ons: [],
    exchange_commission: account?.exchangeCommission ?? null,
  };
}

const periodCounts = {
  today: { type: 'integer' },
  this_week: { type: 'integer', description: 'Since Monday 00:00 UTC.' },
  this_month: { type: 'integer', description: 'Since the 1st, 00:00 UTC.' },
} as const;

export const usageSchema = {
  type: 'object',
  required: ['requests', 'streams', 'period'],
  properties: {
    requests: {
      type: 'object',
      required: ['today', 'this_week', 'this_month', 'limit', 'by_endpoint'],
      properties: {
        ...periodCounts,
        limit: {
          type: 'object',
          required: ['per_minute', 'remaining', 'resets_at'],
          description: 'The current rate-limit window, as of this request (which it includes).',
          properties: { per_minute: { type: 'integer' }, remaining: { type: 'integer' }, resets_at: dateTime },
        },
        by_endpoint: {
          type: 'array',
          description: 'Per route, busiest this month first.',
          items: {
            type: 'object',
            required: ['endpoint', 'today', 'this_week', 'this_month'],
            properties: { endpoint: { type: 'string', description: 'Method and route pattern, e.g. GET /api/v1/odds.' }, ...periodCounts },
          },
        },
      },
    },
    streams: { type: 'object', required: ['active', 'max'], properties: { active: { type: 'integer' }, max: { type: 'integer' } } },
    period: {
      type: 'object',
      required: ['start', 'end'],
      description: 'The calendar month (UTC) the monthly count covers.',
      properties: { start: dateTime, end: dateTime },
    },
  },
} as const;
