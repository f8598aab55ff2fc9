import { Ajv } from 'ajv';
import { evRowFilterParams } from '../contract/index.js';
import { ApiError } from '../errors.js';
import type { EvRowFilterQuery } from '../queries/index.js';

const FIELDS = Object.keys(evRowFilterParams) as (keyof EvRowFilterQuery)[];
const TEXT_FIELDS = new Set(FIELDS.filter((f) => (evRowFilterParams[f] as { type?: string }).type === 'string'));

/**
 * The WebSocket has no route schema to check its filters, so the `/opportunities/ev` parameters'
 * own schema checks them here (coercing the query string's text as Fastify does for SSE and REST);
 * the values then go through the same parser as REST (`parseEvRowFilter`).
 */
const validate = new Ajv({ coerceTypes: true, allErrors: false, strict: false }).compile({
  type: 'object',
  properties: evRowFilterParams,
});

/**
 * The +EV row filters of a WebSocket subscription (`pick` reads a filter by name from the query
 * string or a message), or undefined when it names none. A list may come as an array of strings;
 * an empty value filters nothing. A bad value is `invalid_request` naming the filter.
 */
export function evRowFieldsOf(pick: (name: string) => unknown): EvRowFilterQuery | undefined {
  const given = Object.create(null) as Record<string, unknown>;
  for (const name of FIELDS) {
    const v = pick(name);
    if (v === undefined || v === null || v === '') continue;
    given[name] = TEXT_FIELDS.has(name) && Array.isArray(v) && v.every((x) => typeof x === 'string') ? v.join(',') : v;
  }
  if (Object.keys(given).length === 0) return undefined;
  if (validate(given)) return { ...given } as EvRowFilterQuery;
  const first = validate.errors?.[0];
  const field = first?.instancePath.replace(/^\//, '') ?? '';
  throw new ApiError('invalid_request', `Invalid filter '${field}': ${first?.message ?? 'is invalid'}`);
}

/** The filters' names, in the schema's order (for the subscription's signature). */
export const EV_ROW_FIELDS: readonly (keyof EvRowFilterQuery)[] = FIELDS;
