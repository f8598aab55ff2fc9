import type { FastifyInstance } from 'fastify';
import { MARKET_IDS } from '../../schemas/index.js';
import { pagination, paginationSchema } from '../contract/common.js';
import { MARKET_CATEGORIES } from '../contract/filters.js';
import type { InternalPasses } from '../plugins/auth.js';
import type { Catalog } from '../views/catalog.js';
import type { JsonSchema, RouteSchema, RouteSchemas } from './route-schemas.js';
import type { ToolOutcome, ToolSpec } from './tool.js';

/**
 * A tool that answers through a REST route: its arguments are the route's parameters (catalog
 * ids as enumerated lists, the page size capped for an agent's context), its structured result
 * is the route's JSON answer, produced in process by the route itself. Validation, tier rules
 * (books, data delay, feature gates), the query layer and the presenters are the REST ones.
 */
export interface RestToolDef {
  name: string;
  title: string;
  description: string;
  method: 'GET' | 'POST';
  /** Route path under /api/v1. */
  path: string;
  /** Page size for an agent: the default and the cap (the route's own bounds may be larger). */
  limit?: { default: number; max: number };
  /** Route parameters not offered as arguments. */
  omit?: readonly string[];
  /** Parameters always sent. */
  fixed?: Readonly<Record<string, string>>;
  /** What the rows are, for the summary ("odds rows"). */
  noun: string;
  /**
   * The route answers an object (key -> rows) without paging: the tool pages its keys with
   * `limit`/`offset` arguments of its own and adds `pagination` to the answer.
   */
  pageKeys?: { default: number; max: number };
  /** The route's `sport`/`league` take one id (reference lists), not a comma-separated list. */
  singleIds?: boolean;
}

export const REST_TOOLS: readonly RestToolDef[] = [
  {
    name: 'get_sports', title: 'Sports', method: 'GET', path: '/sports', noun: 'sports', limit: { default: 50, max: 100 },
    description: 'Sports with their leagues and how many events currently have odds (live included). Start here to learn which sport ids to filter by.',
  },
  {
    name: 'get_leagues', singleIds: true, title: 'Leagues', method: 'GET', path: '/leagues', noun: 'leagues', limit: { default: 50, max: 200 },
    description: 'Leagues, optionally of one sport, with their current event and live counts. League ids filter every odds and opportunity tool.',
  },
  {
    name: 'get_sportsbooks', title: 'Sportsbooks', method: 'GET', path: '/sportsbooks', noun: 'sportsbooks', limit: { default: 50, max: 200 },
    description: 'Sportsbooks with regions, whether they are sharp, and the tier that unlocks each (`requires_tier`). Your key sees only the books of its tier.',
  },
  {
    name: 'get_markets', singleIds: true, title: 'Market types', method: 'GET', path: '/markets', noun: 'market types', limit: { default: 50, max: 100 },
    description: 'Market types (moneyline, point_spread, total_points, props, periods) with whether they carry a line and how many events offer them now.',
  },
  {
    name: 'get_teams', singleIds: true, title: 'Teams', method: 'GET', path: '/teams', noun: 'teams', limit: { default: 25, max: 100 },
    description: 'Teams (and players of individual sports) with abbreviations and the aliases books use; `q` searches names and aliases.',
  },
  {
    name: 'get_events', title: 'Events', method: 'GET', path: '/events', noun: 'events', limit: { default: 25, max: 100 },
    description: 'Events that currently have odds, soonest first, with the markets and sportsbooks offering each. Use the event ids with get_odds, compare_odds and get_odds_batch.',
  },
  {
    name: 'get_odds', title: 'Odds', method: 'GET', path: '/odds', noun: 'odds rows', limit: { default: 25, max: 100 }, omit: ['fields', 'group_by'],
    description:
      'Latest prices, one row per event, market, selection, line and sportsbook, filtered by sport, league, event, market, team, date or price. ' +
      'Page with offset, or with cursor (the next_cursor of the previous answer) for a walk that neither repeats nor skips rows.',
  },
  {
    name: 'get_best_odds', title: 'Best odds', method: 'GET', path: '/odds/best', noun: 'best prices', limit: { default: 25, max: 100 },
    description: 'The best price for each outcome across the sportsbooks your key sees, with how many books quote it. Use it to shop a line.',
  },
  {
    name: 'compare_odds', title: 'Compare odds', method: 'GET', path: '/odds/comparison', noun: 'outcomes', pageKeys: { default: 50, max: 200 },
    description: "One event's prices side by side: each outcome (e.g. moneyline:home, point_spread:away:2.5) with every book's price, best first. Narrow with market for big events.",
  },
  {
    name: 'get_odds_batch', title: 'Odds of many events', method: 'POST', path: '/odds/batch', noun: 'events',
    description: 'The odds of several events in one call (up to your tier\'s batch size), keyed by event id; unknown ids are listed in meta.missing.',
  },
  {
    name: 'get_odds_delta', title: 'Odds changes', method: 'GET', path: '/odds/delta', noun: 'changes', limit: { default: 100, max: 500 },
    description:
      'Prices changed and removed since a time. Pass meta.next_since of a get_odds answer (or of the previous delta) as since; ' +
      'apply data as upserts and removed as deletes by id. A since older than the change window is refused: reload with get_odds.',
  },
  {
    name: 'find_ev_opportunities', title: '+EV bets', method: 'GET', path: '/opportunities/ev', noun: '+EV opportunities', limit: { default: 20, max: 100 },
    description: 'Prices above the fair price of the de-vigged sharp line, with EV %, Kelly % and a confidence score, best first. Pro tier or higher.',
  },
  {
    name: 'find_arbitrage', title: 'Arbitrage', method: 'GET', path: '/opportunities/arbitrage', noun: 'arbitrage opportunities', limit: { default: 20, max: 100 },
    omit: ['format'], fixed: { format: 'json' },
    description: 'Sure bets: the best prices across books whose implied probabilities sum below 1, with stakes per leg for a bankroll. Hobby tier or higher.',
  },
  {
    name: 'find_middles', title: 'Middles', method: 'GET', path: '/opportunities/middles', noun: 'middles', limit: { default: 20, max: 100 },
    description: 'Opposite sides of a spread or total at different lines at two books, that can both win, with the hit probability and EV. Pro tier or higher.',
  },
  {
    name: 'find_low_hold', title: 'Low-hold markets', method: 'GET', path: '/opportunities/low_hold', noun: 'low-hold markets', limit: { default: 20, max: 100 },
    description: 'Markets whose best prices across books leave the smallest hold (close to a free bet). Hobby tier or higher.',
  },
];

const LIST_PARAMS = new Set(['sport', 'league', 'sportsbook', 'add_sportsbook', 'market', 'event']);
/** REST aliases kept for the reference's clients; a tool offers one name per argument. */
const ALIASES = new Set(['event_id']);

/** The catalog's ids as enumerations, so an agent picks valid ids instead of guessing. */
function catalogEnums(catalog: Catalog): Map<string, JsonSchema> {
  const books = [...catalog.books.keys()];
  // Every `market` filter takes the categories (main, spread, total, props) and player_<stat> as well as market ids.
  const markets: JsonSchema = { anyOf: [{ type: 'string', enum: [...MARKET_CATEGORIES.keys(), ...MARKET_IDS] }, { type: 'string', pattern: '^player_[a-z0-9_]+$' }] };
  return new Map<string, JsonSchema>([
    ['sport', { type: 'string', enum: [...catalog.sports.keys()] }],
    ['league', { type: 'string', enum: [...catalog.leagues.keys()] }],
    ['sportsbook', { type: 'string', enum: books }],
    ['add_sportsbook', { type: 'string', enum: books }],
    ['market', markets],
    ['event', { type: 'string', minLength: 1, maxLength: 200 }],
  ]);
}

/** Words for the route parameters whose schema carries no description of its own. */
const FALLBACK_DESCRIPTIONS = new Map<string, string>([
  ['sport', 'Sport id (get_sports lists them).'],
  ['league', 'League id (get_leagues lists them).'],
  ['region', 'Only sportsbooks serving this region.'],
  ['sharp', 'true: only sharp books (the reference for fair prices); false: only the others.'],
]);

/** A route parameter as a tool argument: comma-separated lists become arrays of catalog ids. */
function argumentSchema(name: string, routeParam: JsonSchema, enums: Map<string, JsonSchema>, single: boolean): JsonSchema {
  const fallback = FALLBACK_DESCRIPTIONS.get(name);
  const param = typeof routeParam['description'] === 'string' || fallback === undefined ? routeParam : { ...routeParam, description: fallback };
  const item = enums.get(name);
  const description = typeof param['description'] === 'string' ? param['description'] : undefined;
  if (!item || !LIST_PARAMS.has(name)) return param;
  if (param['type'] === 'array') return { ...param, items: item };
  if (single) return { ...item, ...(description ? { description } : {}) };
  const listDescription = (description ?? '').replace(/,?\s*comma-separated/i, '');
  return { type: 'array', items: item, minItems: 1, maxItems: 100, description: `${listDescription} A list (one id is accepted too).`.trim() };
}

function inputSchemaOf(def: RestToolDef, route: RouteSchema, catalog: Catalog): JsonSchema {
  const source = (def.method === 'POST' ? route.body : route.querystring) ?? {};
  const params = (source['properties'] ?? {}) as Record<string, JsonSchema>;
  const omit = new Set(def.omit ?? []);
  const enums = catalogEnums(catalog);
  const properties: Record<string, JsonSchema> = {};
  for (const [name, param] of Object.entries(params)) {
    if (omit.has(name) || ALIASES.has(name)) continue;
    properties[name] = argumentSchema(name, param, enums, def.singleIds === true);
  }
  if (def.limit && properties['limit']) {
    properties['limit'] = { type: 'integer', minimum: 1, maximum: def.limit.max, default: def.limit.default, description: `Page size, 1 to ${def.limit.max}.` };
  }
  if (def.pageKeys) {
    properties['limit'] = { type: 'integer', minimum: 1, maximum: def.pageKeys.max, default: def.pageKeys.default, description: `How many ${def.noun} to return, 1 to ${def.pageKeys.max}.` };
    properties['offset'] = { type: 'integer', minimum: 0, maximum: 1_000_000, default: 0, description: `${def.noun[0]?.toUpperCase() ?? ''}${def.noun.slice(1)} to skip.` };
  }
  const required = ((source['required'] ?? []) as string[]).filter((r) => !omit.has(r));
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

function outputSchemaOf(def: RestToolDef, route: RouteSchema): JsonSchema {
  const ok = route.response?.['200'] ?? {};
  const content = ok['content'] as Record<string, { schema?: JsonSchema }> | undefined;
  const answer = content?.['application/json']?.schema ?? ok;
  // A route that answers several JSON shapes (arbitrage: rows, or CSV text as JSON) lists the rows first.
  const variants = answer['anyOf'] as JsonSchema[] | undefined;
  const schema = answer['type'] === undefined && variants ? (variants.find((v) => v['type'] === 'object') ?? answer) : answer;
  const { description: _description, ...rest } = schema;
  if (!def.pageKeys) return rest;
  return { ...rest, properties: { ...(rest['properties'] as object), pagination: paginationSchema } };
}

/** One page of an object answer's keys (in the route's order), with the paging a list would have. */
function pageOfKeys(body: Envelope, args: Record<string, unknown>): Envelope {
  const limit = args['limit'] as number;
  const offset = args['offset'] as number;
  const entries = Object.entries((body.data ?? {}) as Record<string, unknown>);
  const data = Object.fromEntries(entries.slice(offset, offset + limit));
  return { ...body, data, pagination: { ...pagination(limit, offset, entries.length) } };
}

/** Arguments as the route reads them: lists joined with commas, everything as text for a query. */
function toWire(args: Record<string, unknown>, forBody: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined) continue;
    if (Array.isArray(value) && LIST_PARAMS.has(name)) out[name] = value.join(',');
    else out[name] = forBody ? value : String(value);
  }
  return out;
}

type Envelope = Record<string, unknown> & { data?: unknown; pagination?: Record<string, unknown>; meta?: Record<string, unknown> };

/** One short paragraph an agent can act on: what came back and how to get more. */
export function summarize(def: Pick<RestToolDef, 'name' | 'noun'>, body: Envelope): string {
  const data = body.data;
  const p = body.pagination;
  const meta = body.meta ?? {};
  if (Array.isArray(data)) {
    const total = typeof meta['total'] === 'number' ? meta['total'] : ((meta['summary'] as Record<string, unknown> | undefined)?.['count'] ?? undefined);
    const offset = typeof p?.['offset'] === 'number' ? p['offset'] : 0;
    const removed = Array.isArray(body['removed']) ? body['removed'].length : 0;
    let text = `${data.length} ${def.noun}${removed > 0 ? ` and ${removed} removals` : ''}${typeof total === 'number' ? ` of ${total}` : ''}${offset > 0 ? ` from offset ${offset}` : ''}.`;
    if (p?.['has_more'] === true) {
      if (typeof meta['next_since'] === 'string' && def.name === 'get_odds_delta') text += ` More available: call ${def.name} again with since=${meta['next_since']}.`;
      else if (typeof p['next_cursor'] === 'string') text += ` More available: call ${def.name} again with cursor=${p['next_cursor']} (same filters).`;
      else text += ` More available: call ${def.name} again with offset=${String(p['next_offset'])}.`;
    } else if (data.length > 0) text += ' That is all.';
    return text;
  }
  if (data && typeof data === 'object') {
    const groups = Object.values(data as Record<string, unknown>);
    const rows = groups.reduce<number>((n, g) => n + (Array.isArray(g) ? g.length : 0), 0);
    const missing = Array.isArray(meta['missing']) && meta['missing'].length > 0 ? ` Missing or without odds: ${meta['missing'].join(', ')}.` : '';
    const more = p?.['has_more'] === true ? ` More available: call ${def.name} again with offset=${String(p['next_offset'])}.` : '';
    return `${groups.length} ${def.noun} with ${rows} prices in all.${missing}${more}`;
  }
  return 'Done.';
}

/** REST messages name query parameters and body fields; a tool's caller knows them as arguments. */
function asArgumentMessage(message: string): string {
  return message.replace(/\b(query parameter|body field|parameter)\b/g, 'argument');
}

export function restTools(app: FastifyInstance, prefix: string, schemas: RouteSchemas, catalog: Catalog, passes: InternalPasses): ToolSpec[] {
  const tools: ToolSpec[] = [];
  for (const def of REST_TOOLS) {
    const url = `${prefix}${def.path}`;
    const route = schemas.get(def.method, url);
    // A renamed or removed route must not make its tool vanish quietly.
    if (!route) throw new Error(`MCP tool ${def.name}: no route ${def.method} ${url}; update REST_TOOLS`);
    tools.push({
      name: def.name,
      title: def.title,
      description: def.description,
      inputSchema: inputSchemaOf(def, route, catalog),
      outputSchema: outputSchemaOf(def, route),
      async run(args, caller): Promise<ToolOutcome> {
        const { limit: _limit, offset: _offset, ...routeArgs } = args;
        const wire = { ...toWire(def.pageKeys ? routeArgs : args, def.method === 'POST'), ...def.fixed };
        const res = await passes.run(caller, (headers) =>
          def.method === 'POST'
            ? app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(wire) })
            : app.inject({ method: 'GET', url, headers, query: wire as Record<string, string> }),
        );
        let answer: Envelope;
        try {
          answer = JSON.parse(res.payload) as Envelope;
        } catch {
          return { ok: false, message: `The ${def.name} tool got an answer it could not read (status ${res.statusCode}); retry later` };
        }
        if (res.statusCode === 200) {
          const body = def.pageKeys ? pageOfKeys(answer, args) : answer;
          return { ok: true, structured: body, summary: summarize(def, body) };
        }
        const body = answer;
        const error = (body['error'] ?? {}) as { code?: string; message?: string };
        if (res.statusCode >= 500) return { ok: false, message: `The ${def.name} tool failed (${error.code ?? res.statusCode}); retry later` };
        return { ok: false, message: asArgumentMessage(error.message ?? `${def.name} failed with status ${res.statusCode}`) };
      },
    });
  }
  return tools;
}
