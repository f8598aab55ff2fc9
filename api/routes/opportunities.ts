import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { recipeParams } from '../contract/index.js';
import { DEFAULT_LOW_HOLD_PERCENT, EV_LIST_DEVIG_CHOICES } from '../../schemas/index.js';
import { authErrorResponses, dataEnvelope, notFoundResponse, paginatedEnvelope } from '../contract/index.js';
import { arbitrageCsv, arbitrageRowSchema, evRowSchema, lowHoldRowSchema, middleRowSchema } from '../contract/index.js';
import { SUMMARY_COUNTS, commonOpportunityParams, evRowFilterParams, opportunityMeta, sortParam } from '../contract/index.js';
import { deepLinkStateParam } from '../deeplinks/index.js';
import type { AppDeps } from '../deps.js';
import { tierOf } from '../plugins/index.js';
import { OpportunityBoard } from '../views/index.js';
import {
  ARBITRAGE_SORT_KEYS,
  EV_SORT_KEYS,
  LOW_HOLD_SORT_KEYS,
  MIDDLE_SORT_KEYS,
  arbitrageList,
  evList,
  lowHoldList,
  middleById,
  middlesList,
  middlesSummary,
} from '../queries/index.js';
import type { OpportunitySource } from '../queries/index.js';
import type { RouteTypes, RouteTypesWithText } from '../contract/index.js';

/**
 * format=csv as JSON `{"data": "<csv>"}`: for clients that parse every answer as JSON (the
 * reference's Python SDK sends Content-Type: application/json even on GET, and no Accept).
 */
function wantsJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  if (/text\/csv/i.test(accept)) return false;
  return /application\/json/i.test(accept) || /application\/json/i.test(request.headers['content-type'] ?? '');
}

/** Opportunity ids are 16 lowercase hex digits, as the reference's; anything else is a 400 naming `id`. */
const OPPORTUNITY_ID = '^[0-9a-f]{16}$';

const bankrollParam = {
  type: 'number',
  minimum: 1,
  maximum: 10_000_000,
  default: 100,
  description: 'Total stake to split across the legs; stakes are rounded to cents and add up to it.',
};
const middleSummarySchema = {
  type: 'object',
  required: [
    'total',
    'positive_ev_count',
    'guaranteed_profit_count',
    'player_prop_count',
    'has_key_numbers_count',
    'by_sport',
    'by_market',
    'by_sportsbook',
    'avg_middle_size',
    'avg_probability',
    'avg_ev',
    'best_ev',
  ],
  properties: {
    total: { type: 'integer' },
    positive_ev_count: { type: 'integer' },
    guaranteed_profit_count: { type: 'integer' },
    player_prop_count: { type: 'integer' },
    has_key_numbers_count: { type: 'integer' },
    by_sport: { type: 'object', additionalProperties: { type: 'integer' } },
    by_market: { type: 'object', additionalProperties: { type: 'integer' } },
    by_sportsbook: { type: 'object', additionalProperties: { type: 'integer' }, description: 'Every book of a middle counts.' },
    avg_middle_size: { type: 'number' },
    avg_probability: { type: 'number' },
    avg_ev: { type: 'number', description: '$ per $100 staked (= %).' },
    best_ev: {
      anyOf: [
        {
          type: 'object',
          required: ['ev', 'sport', 'market'],
          properties: { ev: { type: 'number' }, sport: { type: 'string' }, market: { type: 'string' } },
        },
        { type: 'null' },
      ],
    },
  },
};
const groupParam = { type: 'string', enum: ['best'], description: 'best: only the best opportunity of each event.' };
const num = { type: 'number' };
const nullableNum = { type: ['number', 'null'] };
const groupEcho = { group: { type: ['string', 'null'] } };
const EV_META = opportunityMeta(
  { avg_ev: num, max_ev: num, by_sportsbook: SUMMARY_COUNTS },
  { min_ev: num, max_ev: nullableNum, include: { type: ['string', 'null'] } },
  { devig_method: { type: 'string', enum: [...EV_LIST_DEVIG_CHOICES] } },
);
const ARB_META = opportunityMeta(
  { avg_profit: num, max_profit: num, by_sportsbook: SUMMARY_COUNTS },
  { min_profit: num, bankroll: num, ...groupEcho },
  {
    books_analyzed: {
      type: 'integer',
      description: 'Sportsbooks the search covered (those the key may see, or the sportsbook selection).',
    },
  },
);
const MIDDLE_META = opportunityMeta({}, { min_size: num, bankroll: num, ...groupEcho });
const LOW_HOLD_META = opportunityMeta(
  { avg_hold: num, min_hold: num },
  { max_hold: num, state: { type: ['string', 'null'] }, ...groupEcho },
  { threshold: { type: 'number', description: 'The hold (%) up to which the processor keeps markets; a larger max_hold finds no more.' } },
);
const SOURCE_META = {
  type: 'object',
  properties: {
    source: { type: 'string' },
    filters: { type: 'object', properties: { sport: { type: ['string', 'null'] }, league: { type: ['string', 'null'] } } },
  },
};
const withTags = (summary: string, description: string): { tags: string[]; summary: string; description: string } => ({
  tags: ['opportunities'],
  summary,
  description,
});

/**
 * The opportunity endpoints, served from the in-memory board the `opportunities` changelog keeps.
 * Each caller sees only opportunities whose every leg is at a sportsbook of its tier (or of its
 * `sportsbook` selection); arbitrage, middles and low-hold show the best visible combination of
 * books per situation.
 */
export const opportunitiesRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  const { clock } = deps;
  // A process that runs no opportunity stages serves an empty board rather than failing.
  const board = deps.opportunities ?? new OpportunityBoard();
  const source: OpportunitySource = { deps, opportunities: board };

  app.get<RouteTypes<'/api/v1/opportunities/ev'>>(
    '/opportunities/ev',
    {
      schema: {
        ...withTags(
          'Positive expected value (+EV) bets',
          'Prices above the fair price of the de-vigged sharp line. Pro tier or higher. One row per sportsbook and selection.',
        ),
        querystring: {
          type: 'object',
          properties: {
            ...commonOpportunityParams,
            min_ev: {
              type: 'number',
              minimum: -100,
              maximum: 1000,
              default: 0,
              description: 'Minimum EV percentage under the chosen de-vig method.',
            },
            max_ev: { type: 'number', minimum: -100, maximum: 1000, description: 'Maximum EV percentage.' },
            min_market_width: {
              type: 'number',
              minimum: -1000,
              maximum: 10_000,
              description: 'Cents; a lower width means a sharper reference market.',
            },
            max_market_width: { type: 'number', minimum: -1000, maximum: 10_000, description: 'Cents.' },
            sort: sortParam(EV_SORT_KEYS, 'Order; a leading - sorts descending.', '-ev'),
            devig_method: {
              type: 'string',
              enum: [...EV_LIST_DEVIG_CHOICES],
              default: 'power',
              description:
                'Which de-vig method fills the row and applies to min_ev/max_ev: power, multiplicative, additive, shin, odds_ratio (Cheung), logit (the same model solved in log-odds), or worst_case (per outcome the lowest fair probability of all methods). ' +
                'efficient_shin (per-outcome Shin, Kizildemir et al.) and goto (goto_conversion) are recipe methods: each row is re-priced by the recipe with that method (recipe_ev, fair_band), while the row values, min_ev/max_ev and the order stay on power.',
            },
            include: {
              type: 'string',
              enum: ['methods', 'suspicious', 'methods,suspicious', 'suspicious,methods'],
              description:
                'Comma list. methods: add the values under every de-vig method; suspicious: also the phantom opportunities the default list leaves out (warning VERY_STALE_ODDS).',
            },
            // The fair-line recipe (docs/opportunities.md): given, each row is re-priced by it as well.
            ...recipeParams,
            ...evRowFilterParams,
          },
        },
        response: { 200: paginatedEnvelope(evRowSchema, EV_META), ...authErrorResponses },
      },
    },
    async (request) => evList(source, tierOf(request), request.query),
  );

  app.get<RouteTypesWithText<'/api/v1/opportunities/arbitrage'>>(
    '/opportunities/arbitrage',
    {
      schema: {
        ...withTags(
          'Arbitrage (sure bets)',
          'Best prices across books whose implied probabilities sum below 1. Hobby tier or higher. format=csv downloads the same rows as CSV.',
        ),
        querystring: {
          type: 'object',
          properties: {
            ...commonOpportunityParams,
            min_profit: {
              type: 'number',
              minimum: 0,
              maximum: 1000,
              default: 0.5,
              description: 'Minimum guaranteed profit, % (default 0.5).',
            },
            sort: sortParam(
              Object.keys(ARBITRAGE_SORT_KEYS),
              'profit: most profitable first (default); start_time (alias time): soonest first; sport, market: A-Z. A leading - reverses.',
              'profit',
            ),
            format: {
              type: 'string',
              enum: ['json', 'csv'],
              default: 'json',
              description:
                'csv: the rows as CSV (text/csv), or as {"data": "<csv>"} when the request asks for JSON (Accept: application/json without text/csv, or a Content-Type: application/json header).',
            },
            group: groupParam,
            bankroll: bankrollParam,
          },
        },
        response: {
          200: {
            description: 'Arbitrage opportunities (JSON), or the CSV export with format=csv.',
            content: {
              'application/json': {
                schema: {
                  anyOf: [
                    paginatedEnvelope(arbitrageRowSchema, ARB_META),
                    dataEnvelope({ type: 'string', description: 'format=csv asked for as JSON: the CSV text.' }),
                  ],
                },
              },
              'text/csv': { schema: { type: 'string' } },
            },
          },
          ...authErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const answer = arbitrageList(source, tierOf(request), request.query);
      if (request.query.format === 'csv') {
        const text = arbitrageCsv(answer.data);
        if (wantsJson(request)) return { success: true, data: text };
        const day = new Date(clock.now()).toISOString().slice(0, 10);
        // The status (last: type and header forget it) picks the reply type out of the route's per-status map.
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="arbitrage_${day}.csv"`)
          .code(200)
          .send(text);
      }
      return answer;
    },
  );

  app.get<RouteTypes<'/api/v1/opportunities/middles/summary'>>(
    '/opportunities/middles/summary',
    {
      schema: {
        ...withTags(
          'Middles summary',
          'Counts and averages over the middles the key may see (Pro tier or higher), optionally of one sport or league.',
        ),
        querystring: { type: 'object', properties: { sport: commonOpportunityParams.sport, league: commonOpportunityParams.league } },
        response: { 200: dataEnvelope(middleSummarySchema, SOURCE_META), ...authErrorResponses },
      },
    },
    async (request) => middlesSummary(source, tierOf(request), request.query),
  );

  app.get<RouteTypes<'/api/v1/opportunities/middles/{id}'>>(
    '/opportunities/middles/:id',
    {
      schema: {
        ...withTags(
          'One middle',
          'One middle by id, if the key may see it (Pro tier or higher, every leg at a book of its tier); 404 otherwise.',
        ),
        params: {
          type: 'object',
          required: ['id'],
          properties: { id: { type: 'string', pattern: OPPORTUNITY_ID, description: 'Opportunity id: 16 lowercase hex digits.' } },
        },
        querystring: { type: 'object', properties: { bankroll: bankrollParam } },
        response: { 200: dataEnvelope(middleRowSchema, SOURCE_META), 404: notFoundResponse, ...authErrorResponses },
      },
    },
    async (request) => middleById(source, tierOf(request), request.params.id, request.query.bankroll),
  );

  app.get<RouteTypes<'/api/v1/opportunities/middles'>>(
    '/opportunities/middles',
    {
      schema: {
        ...withTags(
          'Middles',
          'Opposite sides of a spread or total at different lines, at two books, that can both win. Pro tier or higher.',
        ),
        querystring: {
          type: 'object',
          properties: {
            ...commonOpportunityParams,
            min_size: {
              type: 'number',
              minimum: 0,
              maximum: 1000,
              default: 0.5,
              description: 'Minimum middle size (the gap between the lines), points; default 0.5.',
            },
            min_window: { type: 'number', minimum: 0, maximum: 1000, description: 'Same as min_size (our earlier name).' },
            min_hit_probability: { type: 'number', minimum: 0, maximum: 1, description: 'Minimum model probability that both legs win.' },
            max_cost: {
              type: 'number',
              minimum: 0,
              maximum: 100,
              description: 'Largest acceptable worst-case loss, % of the total stake.',
            },
            min_ev: { type: 'number', minimum: -100, maximum: 1000, description: 'Minimum model EV, %.' },
            sort: sortParam(
              MIDDLE_SORT_KEYS,
              'quality (default), ev, probability (alias hit_probability), middle_size (alias window): best first; cost: cheapest first; start_time: soonest first. A leading - reverses.',
              'quality',
            ),
            group: groupParam,
            bankroll: bankrollParam,
            state: deepLinkStateParam,
          },
        },
        response: { 200: paginatedEnvelope(middleRowSchema, MIDDLE_META), ...authErrorResponses },
      },
    },
    async (request) => middlesList(source, tierOf(request), request.query),
  );

  for (const path of ['/opportunities/low_hold', '/opportunities/low-hold'])
    // Both paths are declared with one schema: the alias's types are the canonical path's.
    app.get<RouteTypes<'/api/v1/opportunities/low_hold'>>(
      path,
      {
        schema: {
          ...withTags(
            path === '/opportunities/low_hold' ? 'Low-hold markets' : 'Low-hold markets (alias of /opportunities/low_hold)',
            `Markets whose best-price hold, 1 - 1/sum(1/d), is at most max_hold. Hobby tier or higher. The processor keeps markets up to ${DEFAULT_LOW_HOLD_PERCENT} % (the default max_hold), so a larger max_hold finds no more.`,
          ),
          ...(path === '/opportunities/low-hold' ? { deprecated: true } : {}),
          querystring: {
            type: 'object',
            properties: {
              ...commonOpportunityParams,
              max_hold: {
                type: 'number',
                minimum: -100,
                maximum: 100,
                default: DEFAULT_LOW_HOLD_PERCENT,
                description: `Largest hold, % (default 5). Markets above ${DEFAULT_LOW_HOLD_PERCENT} % are not kept by the processor (meta.threshold).`,
              },
              sort: sortParam(
                Object.keys(LOW_HOLD_SORT_KEYS),
                'hold: lowest first (default); start_time: soonest first; sport, market: A-Z. A leading - reverses.',
                'hold',
              ),
              group: groupParam,
              state: deepLinkStateParam,
            },
          },
          response: { 200: paginatedEnvelope(lowHoldRowSchema, LOW_HOLD_META), ...authErrorResponses },
        },
      },
      async (request) => lowHoldList(source, tierOf(request), request.query),
    );
};
