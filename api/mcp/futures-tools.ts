import { FUTURE_TYPES, TIERS, selectBooks } from '../../schemas/index.js';
import type { TierName } from '../../schemas/index.js';
import {
  futureMarketSchema,
  futureOddsSchema,
  presentFutureMarket,
  presentFutureOdds,
  presentFuturesComparison,
} from '../contract/futures.js';
import { csv, pagination, paginationSchema } from '../contract/common.js';
import { compareFutures, futuresOdds, listFutures } from '../queries/index.js';
import type { Catalog } from '../views/catalog.js';
import { FuturesBoard } from '../views/futures-board.js';
import type { FuturesView } from '../views/futures-board.js';
import type { JsonSchema } from './route-schemas.js';
import type { ToolOutcome, ToolSpec } from './tool.js';

/** COMPAT §6: the futures tools need the Pro tier. */
const MIN_TIER: TierName = 'pro';
const TIER_ORDER: readonly TierName[] = ['free', 'hobby', 'pro', 'sharp', 'enterprise'];
const idList = { type: 'string', minLength: 1, maxLength: 2000, pattern: '^[A-Za-z0-9][A-Za-z0-9_.,-]*$' } as const;

type Scope = { ok: true; books: Set<string>; delayMs: number; withFair: boolean } | { ok: false; message: string };

/** The caller's books (its tier's, or the ones it names) and delay, or why not. */
function scope(catalog: Catalog, tier: TierName, sportsbook: unknown): Scope {
  if (TIER_ORDER.indexOf(tier) < TIER_ORDER.indexOf(MIN_TIER))
    return { ok: false, message: `The futures tools need the ${MIN_TIER} tier or higher; this key is ${tier}` };
  const requested = csv(typeof sportsbook === 'string' ? sportsbook : undefined);
  for (const b of requested ?? [])
    if (!catalog.books.has(b)) return { ok: false, message: `Invalid argument 'sportsbook': unknown sportsbook '${b}'` };
  const selection = selectBooks(tier, [...catalog.books.values()], requested);
  if (!selection.ok)
    return {
      ok: false,
      message:
        selection.reason === 'tier'
          ? `Sportsbook '${selection.book}' needs the ${selection.needs} tier or higher`
          : `The ${tier} tier serves at most ${selection.max} sportsbooks per request`,
    };
  return { ok: true, books: selection.books, delayMs: TIERS[tier].dataDelaySeconds * 1000, withFair: TIERS[tier].features.includes('ev') };
}

function filters(
  catalog: Catalog,
  args: Record<string, unknown>,
): { sports?: Set<string>; leagues?: Set<string>; futureTypes?: Set<string> } | string {
  const sports = csv(args['sport'] as string | undefined);
  const leagues = csv(args['league'] as string | undefined);
  const types = csv(args['future_type'] as string | undefined);
  for (const s of sports ?? []) if (!catalog.sports.has(s)) return `Invalid argument 'sport': unknown sport '${s}'`;
  for (const l of leagues ?? []) if (!catalog.leagues.has(l)) return `Invalid argument 'league': unknown league '${l}'`;
  for (const t of types ?? [])
    if (!(FUTURE_TYPES as readonly string[]).includes(t))
      return `Invalid argument 'future_type': expected one of ${FUTURE_TYPES.join(', ')}`;
  return { ...(sports ? { sports } : {}), ...(leagues ? { leagues } : {}), ...(types ? { futureTypes: types } : {}) };
}

const marketArgs = {
  sport: { type: 'string', maxLength: 2000, description: 'Sport ids, comma-separated.' },
  league: { type: 'string', maxLength: 2000, description: 'League ids, comma-separated (e.g. nba, nfl, epl).' },
  future_type: { type: 'string', maxLength: 200, description: `Comma-separated: ${FUTURE_TYPES.join(', ')}.` },
  sportsbook: { type: 'string', maxLength: 2000, description: 'Sportsbook ids, comma-separated; default: the books of your tier.' },
} as const;

/**
 * The futures tools of COMPAT §6 (Pro): `get_futures_odds` lists the markets, or with
 * `future_id` every book's prices with the fair line; `compare_futures_lines` lays one market
 * out side by side. Answered from the futures query layer directly, with the REST presenters.
 */
export function futuresTools(catalog: Catalog, view: FuturesView = new FuturesBoard()): ToolSpec[] {
  return [
    {
      name: 'get_futures_odds',
      title: 'Futures odds',
      description:
        'Outright markets: championship winners, MVP races, season win totals, to make the playoffs. Without future_id: the markets (market_id, name, type, books). ' +
        "With future_id (market ids, comma-separated): every price at your books, most likely outcome first, with the sharp references' de-vigged fair probability and the EV % of each price. Pro tier and up.",
      inputSchema: {
        type: 'object',
        additionalProperties: false,
        properties: {
          future_id: { ...idList, description: 'Market ids from a call without it (market_id), comma-separated.' },
          ...marketArgs,
          limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
          offset: { type: 'integer', minimum: 0, maximum: 5000, default: 0 },
        },
      },
      outputSchema: {
        type: 'object',
        required: ['data', 'pagination'],
        properties: {
          data: { type: 'array', items: { anyOf: [futureMarketSchema, futureOddsSchema] } },
          pagination: paginationSchema,
        },
      } as JsonSchema,
      run: async (args, context): Promise<ToolOutcome> => {
        const s = scope(catalog, context.record.tier, args['sportsbook']);
        if (!s.ok) return { ok: false, message: s.message };
        const f = filters(catalog, args);
        if (typeof f === 'string') return { ok: false, message: f };
        const limit = (args['limit'] as number | undefined) ?? 50;
        const offset = (args['offset'] as number | undefined) ?? 0;
        const ids = csv(args['future_id'] as string | undefined);
        if (!ids) {
          const markets = listFutures(view, { ...f, books: s.books, delayMs: s.delayMs });
          const page = markets.slice(offset, offset + limit);
          return {
            ok: true,
            structured: { data: page.map(presentFutureMarket), pagination: pagination(limit, offset, markets.length) },
            summary: `${markets.length} futures markets${markets.length > offset + limit ? `; more with offset ${offset + limit}` : ''}. Ask again with future_id for prices.`,
          };
        }
        const rows = futuresOdds(view, { ...f, futureIds: ids, books: s.books, delayMs: s.delayMs });
        const page = rows.slice(offset, offset + limit);
        return {
          ok: true,
          structured: { data: page.map((r) => presentFutureOdds(r, s.withFair)), pagination: pagination(limit, offset, rows.length) },
          summary: `${rows.length} futures prices in ${new Set(rows.map((r) => r.quote.futureId)).size} of ${ids.size} markets${rows.length > offset + limit ? `; more with offset ${offset + limit}` : ''}.`,
        };
      },
    },
    {
      name: 'compare_futures_lines',
      title: 'Compare futures lines',
      description:
        "One outright market side by side: for each outcome every book's price, the best price and book, the sharp references' fair probability (each de-vig method) and the EV % of each price; plus each book's hold on the market. Pro tier and up.",
      inputSchema: {
        type: 'object',
        additionalProperties: false,
        required: ['future_id'],
        properties: {
          future_id: { ...idList, description: 'One market id (market_id from get_futures_odds).' },
          sportsbook: marketArgs.sportsbook,
        },
      },
      outputSchema: {
        type: 'object',
        required: ['market', 'reference_books', 'holds', 'outcomes'],
        properties: {
          market: futureMarketSchema as unknown as JsonSchema,
          reference_books: { type: 'array', items: { type: 'string' } },
          holds: {
            type: 'array',
            items: { type: 'object', properties: { sportsbook: { type: 'string' }, hold_percent: { type: 'number' } } },
          },
          outcomes: { type: 'array', items: { type: 'object', additionalProperties: true } },
        },
      } as JsonSchema,
      run: async (args, context): Promise<ToolOutcome> => {
        const s = scope(catalog, context.record.tier, args['sportsbook']);
        if (!s.ok) return { ok: false, message: s.message };
        const futureId = String(args['future_id']);
        const comparison = compareFutures(view, futureId, s.books, s.delayMs);
        if (!comparison)
          return {
            ok: false,
            message: `No book of yours prices the futures market '${futureId}'; get_futures_odds without future_id lists the markets`,
          };
        const best = comparison.outcomes[0];
        return {
          ok: true,
          structured: presentFuturesComparison(comparison),
          summary:
            `${comparison.market.name}: ${comparison.outcomes.length} outcomes at ${comparison.holds.length} books` +
            (best?.best
              ? `; favourite ${best.selection}, best ${best.best.priceAmerican > 0 ? '+' : ''}${best.best.priceAmerican} at ${best.best.book}.`
              : '.'),
        };
      },
    },
  ];
}
