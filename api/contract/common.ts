import { ERROR_CODES } from '../errors.js';
import type { ReplyOf } from './route-types.js';

/** JSON Schemas shared by the routes (fast serialization and the OpenAPI document). */

export const nullableString = { type: ['string', 'null'] } as const;
export const nullableNumber = { type: ['number', 'null'] } as const;
export const nullableInteger = { type: ['integer', 'null'] } as const;

export const paginationSchema = {
  type: 'object',
  required: ['limit', 'offset', 'has_more', 'next_offset'],
  properties: {
    limit: { type: 'integer' },
    offset: { type: 'integer' },
    has_more: { type: 'boolean' },
    next_offset: nullableInteger,
    next_cursor: {
      ...nullableString,
      description: 'Opaque cursor of the next page (where the endpoint offers cursors); null on the last page.',
    },
    count: { type: 'integer', description: 'Items on this page.' },
    total: { type: 'integer', description: 'Items matching the query.' },
  },
} as const;

const requiredTier = { type: 'string', description: '403: the cheapest tier that would allow the request.' } as const;
const retryAfter = { type: 'integer', description: '429: seconds until the rate-limit window resets (as Retry-After).' } as const;

export const errorSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'docs'],
      properties: {
        code: { type: 'string', enum: Object.keys(ERROR_CODES) },
        message: { type: 'string' },
        docs: { type: 'string' },
        tier: { type: 'string', description: "403: the caller's tier." },
        required_tier: requiredTier,
        retry_after: retryAfter,
        max_offset: { type: 'integer', description: 'offset_too_large: the largest offset the endpoint takes.' },
        max_books: { type: 'integer', description: '403 on too many sportsbooks: the most the tier serves per request.' },
        requested_books: { type: 'integer', description: '403 on too many sportsbooks: how many the request asked for.' },
      },
    },
    required_tier: { ...requiredTier, description: 'Same as error.required_tier (read there by some clients).' },
    retry_after: { ...retryAfter, description: 'Same as error.retry_after (read there by some clients).' },
  },
} as const;

export const teamRefSchema = {
  type: 'object',
  properties: { id: { type: 'string' }, numerical_id: nullableInteger, name: { type: 'string' }, abbreviation: nullableString },
} as const;
export const sportRefSchema = {
  type: 'object',
  properties: { id: { type: 'string' }, numerical_id: nullableInteger, name: { type: 'string' } },
} as const;
export const labelRefSchema = {
  type: 'object',
  properties: { id: { type: 'string' }, numerical_id: nullableInteger, label: { type: 'string' } },
} as const;

/** An error response with the description the OpenAPI document shows for it. */
export function errorResponse(description: string): object {
  return { ...errorSchema, description };
}

/** Error responses every authenticated route may give. */
export const authErrorResponses = {
  400: errorResponse('invalid_request: a parameter or the body is missing or invalid; the message names it.'),
  401: errorResponse('unauthorized: the API key is missing or not valid.'),
  403: errorResponse(
    "feature_required: the key's tier lacks a feature or sportsbook the request needs; the message names the tier that has it.",
  ),
  429: errorResponse('rate_limited: the per-minute request limit is spent; see Retry-After.'),
} as const;

export const notFoundResponse = errorResponse('not_found: no such resource.');

/**
 * `updated_at` on every 2xx JSON envelope: the time the server emitted the answer. The envelope
 * plugin sets it on the way out, after the handler, so handlers never write it.
 */
export const updatedAtSchema = {
  type: 'string',
  format: 'date-time',
  description: 'When the server emitted this answer (RFC 3339, UTC).',
} as const;

/**
 * `meta.ignored_params`: the envelope plugin names the query parameters the route does not know
 * (api/plugins/ignored-params.ts), so every envelope's `meta` declares it.
 */
export const ignoredParamsSchema = {
  type: 'array',
  items: { type: 'string' },
  description: 'Query parameters this endpoint does not know and ignored (only when there are any): a misspelt filter shows here.',
} as const;

/** A `meta` schema (or none) with `ignored_params` declared beside its own fields. */
export function withIgnoredParams(meta: object | undefined): object {
  const m = (meta ?? { type: 'object' }) as { properties?: Record<string, object> };
  return { ...m, properties: { ...(m.properties ?? {}), ignored_params: ignoredParamsSchema } };
}

export function dataEnvelope(data: object, meta?: object): object {
  return {
    type: 'object',
    required: ['success', 'data', 'updated_at'],
    properties: { success: { type: 'boolean' }, data, meta: withIgnoredParams(meta), updated_at: updatedAtSchema },
  };
}

/** A list's `meta` also carries `pagination` (the envelope plugin copies it there: some clients read it only there). */
function withMetaPagination(meta: object | undefined): object {
  const m = withIgnoredParams(meta) as { properties: Record<string, object> };
  return { ...m, properties: { ...m.properties, pagination: { ...paginationSchema, description: 'Same as the top-level pagination.' } } };
}

export function paginatedEnvelope(item: object, metaSchema?: object): object {
  const meta = withMetaPagination(metaSchema);
  return {
    type: 'object',
    required: ['success', 'data', 'pagination', 'updated_at'],
    properties: {
      success: { type: 'boolean' },
      data: { type: 'array', items: item },
      pagination: paginationSchema,
      meta,
      updated_at: updatedAtSchema,
    },
  };
}

/** `meta` of a plain list: the page's and the match set's sizes. */
export const countMetaSchema = {
  type: 'object',
  properties: {
    count: { type: 'integer', description: 'Items on this page.' },
    total: { type: 'integer', description: 'Items matching the query.' },
  },
} as const;

/** Query-string schema for `limit`/`offset` with the route's own bounds. */
export function pagingParams(defaultLimit: number, maxLimit: number, maxOffset = 1_000_000): Record<string, object> {
  return {
    limit: { type: 'integer', minimum: 1, maximum: maxLimit, default: defaultLimit, description: `Page size, 1 to ${maxLimit}.` },
    offset: { type: 'integer', minimum: 0, maximum: maxOffset, default: 0, description: 'Rows to skip.' },
  };
}

/** `paginationSchema` as the generated types read it (every paginated route shares the fragment; /events stands for them). */
type Pagination = ReplyOf<'/api/v1/events'>['pagination'];

export function pagination(limit: number, offset: number, total: number): Required<Omit<Pagination, 'next_cursor'>> {
  const hasMore = offset + limit < total;
  return {
    limit,
    offset,
    has_more: hasMore,
    next_offset: hasMore ? offset + limit : null,
    count: Math.max(0, Math.min(limit, total - offset)),
    total,
  };
}

/** Comma-separated multi-select parameter as a set; undefined when absent or empty. */
export function csv(value: string | undefined): Set<string> | undefined {
  if (typeof value !== 'string') return undefined;
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  return items.length > 0 ? new Set(items) : undefined;
}

export const csvParam = (description: string): object => ({ type: 'string', maxLength: 2000, description });

export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * A field that the contract leaves out, rather than sending null, when there is no value: strict
 * clients of the reference type these fields as plain strings, so a null fails their check.
 * Spread it into a row: `...whenKnown('deep_link', link)`.
 */
export function whenKnown<K extends string, V>(name: K, value: V | null | undefined): { [P in K]?: V } {
  return (value === null || value === undefined ? {} : { [name]: value }) as { [P in K]?: V };
}
