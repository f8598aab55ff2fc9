import type { FastifyInstance } from 'fastify';
import { evRowFilterParams } from '../contract/index.js';
import { ApiError } from '../errors.js';
import type { EvRowFilterQuery } from '../queries/index.js';

const FIELDS = Object.keys(evRowFilterParams) as (keyof EvRowFilterQuery)[];
const TEXT_FIELDS = new Set(FIELDS.filter((f) => (evRowFilterParams[f] as { type?: string }).type === 'string'));
const EV_ROW_SCHEMA = { type: 'object', properties: evRowFilterParams } as const;

type Validator = ReturnType<NonNullable<FastifyInstance['validatorCompiler']>>;

/**
 * The +EV row filters of WebSocket subscriptions. The upgrade never reaches a route, so no route
 * schema checks them; the `/opportunities/ev` parameters' own schema does, compiled by the app's
 * validator compiler (the Ajv and options that check REST and SSE, so coercion is theirs), then
 * the values go through the same parser as REST (`parseEvRowFilter`). Compiled on first use: the
 * app builds its compiler when it gets ready, after this is made.
 */
export class EvRowFields {
  private validate: Validator | undefined;

  constructor(private readonly app: Pick<FastifyInstance, 'validatorCompiler'>) {}

  /**
   * The filters `pick` reads by name from the query string or a message, or undefined when it
   * names none. A list may come as an array of strings; an empty value filters nothing. A bad
   * value is `invalid_request` naming the filter.
   */
  of(pick: (name: string) => unknown): EvRowFilterQuery | undefined {
    const given = Object.create(null) as Record<string, unknown>;
    for (const name of FIELDS) {
      const v = pick(name);
      if (v === undefined || v === null || v === '') continue;
      given[name] = TEXT_FIELDS.has(name) && Array.isArray(v) && v.every((x) => typeof x === 'string') ? v.join(',') : v;
    }
    if (Object.keys(given).length === 0) return undefined;
    const validate = (this.validate ??= this.compile());
    if (validate(given) === true) return { ...given } as EvRowFilterQuery;
    const first = validate.errors?.[0];
    const field = first?.instancePath.replace(/^\//, '') ?? '';
    throw new ApiError('invalid_request', `Invalid filter '${field}': ${first?.message ?? 'is invalid'}`);
  }

  private compile(): Validator {
    const compiler = this.app.validatorCompiler;
    if (compiler === undefined) throw new Error('The app has no validator compiler yet: WebSocket filters are checked once it is ready');
    return compiler({ schema: EV_ROW_SCHEMA, method: 'GET', url: '/api/v1/ws', httpPart: 'querystring' });
  }
}

/** The filters' names, in the schema's order (for the subscription's signature). */
export const EV_ROW_FIELDS: readonly (keyof EvRowFilterQuery)[] = FIELDS;
