import type { TierName } from '../../schemas/index.js';
import { MARKET_IDS, SPLIT_MARKETS, SPLITS_BOOKS } from '../../schemas/index.js';
import type { Accounts } from '../accounts/index.js';
import { pagination, paginationSchema } from '../contract/index.js';
import { MARKET_CATEGORIES } from '../contract/index.js';
import { ApiError } from '../errors.js';
import {
  alertDeliveries,
  alertRuleList,
  createAlertRule,
  deleteAlertRule,
  accountInfo,
  setAccountCommission,
  arbitrageList,
  betList,
  betSummary,
  logBet,
  bestOddsList,
  closingLines,
  clvHistory,
  eventsList,
  evList,
  eventFairAnswer,
  fairAnswer,
  gameStates,
  leaguesList,
  lowHoldList,
  marketsList,
  middlesList,
  oddsBatch,
  oddsComparison,
  oddsDeltaPage,
  oddsList,
  rateLimitState,
  splitsHistoryList,
  splitsList,
  sportsList,
  sportsbooksList,
  freshnessList,
  teamsList,
} from '../queries/index.js';
import type { BetSource, DeliveriesQuery, NewAlertRule, OpportunitySource, ReadSide, SplitsSource } from '../queries/index.js';
import { onTheWire } from '../plugins/index.js';
import type { Catalog } from '../views/index.js';
import type { FuturesBoard } from '../views/index.js';
import type { GameStateBoard } from '../views/index.js';
import type { OpportunityBoard } from '../views/index.js';
import type { SplitsBoard } from '../views/index.js';
import { SPLIT_SIGNALS, queryAtCallerRate } from '../queries/index.js';
import type { JsonSchema, RouteSchema, RouteSchemas } from './route-schemas.js';
import type { ApiPath, QueryOf, ReplyOf } from '../contract/index.js';
import type { ToolCaller, ToolOutcome, ToolSpec } from './tool.js';
import { asArgumentMessage, refusalOf } from './tool-refusal.js';

/**
 * The part of the app's dependencies the tools read (the REST routes' read side and boards);
 * named here so that the MCP server depends on no more than it uses.
 */
export interface McpDeps extends ReadSide {
  version: string;
  now?: () => number;
  accounts?: Accounts;
  opportunities?: OpportunityBoard;
  splits?: SplitsBoard;
  futures?: FuturesBoard;
}

/** What the query tools read: the same read model, boards and stores the REST routes read. */
export interface ToolSources {
  deps: McpDeps;
  opportunities: OpportunitySource;
  splits: SplitsSource;
  gameStates: GameStateBoard;
  /** Key management; absent in an app built without a key store behind it (no account tool then). */
  accounts?: Accounts;
  /** The bet ledger; absent in an app built without one (no bet tools then). */
  bets?: BetSource;
}

type Envelope = Record<string, unknown> & { data?: unknown; pagination?: Record<string, unknown>; meta?: Record<string, unknown> };
/** A tool's query: the arguments in the shape of the route's parameters, for the caller's tier. */
type Answer = (sources: ToolSources, tier: TierName, args: never, caller: ToolCaller) => Envelope | Promise<Envelope>;

/**
 * A tool on the query layer: it calls the same function of `api/queries` its REST route calls
 * (validation, tier rules for books, data delay and features, presenters), so its structured
 * result is the route's JSON answer. Its arguments are the route's parameters (catalog ids as
 * enumerated lists, the page size capped for an agent's context), described by the route's own
 * JSON Schemas; the route is named only for those.
 */
export interface QueryToolDef {
  name: string;
  title: string;
  description: string;
  /** The REST twin whose schemas describe the arguments and the answer (path under /api/v1). */
  route: { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; path: string };
  answer: Answer;
  /** Page size for an agent: the default and the cap (the route's own bounds may be larger). */
  limit?: { default: number; max: number };
  /** Route parameters not offered as arguments. */
  omit?: readonly string[];
  /** What the rows are, for the summary ("odds rows"). */
  noun: string;
  /**
   * The route answers an object (key -> rows) without paging: the tool pages the entries of the
   * object at `at` (`data` by default; two levels deep with `depth: 2`, sport -> event) with
   * `limit`/`offset` arguments of its own and adds `pagination` to the answer.
   */
  pageKeys?: { default: number; max: number; at?: readonly string[]; depth?: 1 | 2 };
  /** The route's `sport`/`league` take one id (reference lists), not a comma-separated list. */
  singleIds?: boolean;
  /** Arguments the tool cannot do without that the route checks in code (closing lines' event_id). */
  required?: readonly string[];
  /** Ids a list argument takes where they are not the catalog's (splits: two books, three markets, two signals). */
  itemEnums?: Readonly<Record<string, readonly string[]>>;
  /** Arguments the route takes in its path rather than its query (game state's sport). */
  pathArgs?: Record<string, JsonSchema>;
  /** The summary line, when the generic one (rows, groups, paging) does not say it well. */
  summary?: (body: Envelope) => string;
  /** Present only when the sources can answer it (the account tool needs the key store). */
  available?: (sources: ToolSources) => boolean;
}

const get = (path: string): QueryToolDef['route'] => ({ method: 'GET', path });

type Routed<P extends ApiPath> = ReplyOf<P> & Envelope;
/**
 * The answer of a tool whose REST twin is `P`, held to that route's types: its arguments are the
 * route's query (the tool's input schema is made from the route's) and its answer the route's reply.
 */
const answeredAs = <P extends ApiPath>(
  answer: (sources: ToolSources, tier: TierName, args: QueryOf<P>, caller: ToolCaller) => Routed<P> | Promise<Routed<P>>,
): Answer => answer;

export const QUERY_TOOLS: readonly QueryToolDef[] = [
  {
    name: 'get_sports',
    title: 'Sports',
    route: get('/sports'),
    noun: 'sports',
    limit: { default: 50, max: 100 },
    answer: (s, _tier, args) => sportsList(s.deps, args),
    description:
      'Sports with their leagues and how many events currently have odds (live included). Start here to learn which sport ids to filter by.',
  },
  {
    name: 'get_leagues',
    singleIds: true,
    title: 'Leagues',
    route: get('/leagues'),
    noun: 'leagues',
    limit: { default: 50, max: 200 },
    answer: (s, _tier, args) => leaguesList(s.deps, args),
    description:
      'Leagues, optionally of one sport, with their current event and live counts. League ids filter every odds and opportunity tool.',
  },
  {
    name: 'get_sportsbooks',
    title: 'Sportsbooks',
    route: get('/sportsbooks'),
    noun: 'sportsbooks',
    limit: { default: 50, max: 200 },
    answer: (s, _tier, args) => sportsbooksList(s.deps, args),
    description:
      'Sportsbooks with regions, whether they are sharp, and the tier that unlocks each (`requires_tier`). Your key sees only the books of its tier.',
  },
  {
    name: 'get_freshness',
    title: 'Sportsbook freshness',
    route: get('/freshness'),
    noun: 'sportsbooks',
    answer: (s, _tier, args) => freshnessList(s.deps, args),
    description:
      'How fresh each sportsbook keeps its prices, live and pre-match: p50/p95/p99 of confirmation age and feed lag, updates per minute, share of rows suspended, and the stale threshold its prices get. Use it to tell a quiet line from a dead one.',
  },
  {
    name: 'get_markets',
    singleIds: true,
    title: 'Market types',
    route: get('/markets'),
    noun: 'market types',
    limit: { default: 50, max: 100 },
    answer: (s, tier, args, caller) =>
      marketsList(
        s.deps,
        args,
        rateLimitState((name) => caller.headers[name], tier),
      ),
    description:
      'Market types (moneyline, point_spread, total_points, props, periods) with whether they carry a line and how many events offer them now.',
  },
  {
    name: 'get_teams',
    singleIds: true,
    title: 'Teams',
    route: get('/teams'),
    noun: 'teams',
    limit: { default: 25, max: 100 },
    answer: (s, _tier, args) => teamsList(s.deps, args),
    description: 'Teams (and players of individual sports) with abbreviations and the aliases books use; `q` searches names and aliases.',
  },
  {
    name: 'get_events',
    title: 'Events',
    route: get('/events'),
    noun: 'events',
    limit: { default: 25, max: 100 },
    answer: (s, tier, args) => eventsList(s.deps, tier, args),
    description:
      'Events that currently have odds, soonest first, with the markets and sportsbooks offering each. Use the event ids with get_odds, compare_odds and get_odds_batch.',
  },
  {
    name: 'get_odds',
    title: 'Odds',
    route: get('/odds'),
    noun: 'odds rows',
    limit: { default: 25, max: 100 },
    omit: ['fields', 'group_by'],
    answer: (s, tier, args) => oddsList(s.deps, tier, args),
    description:
      'Latest prices, one row per event, market, selection, line and sportsbook, filtered by sport, league, event, market, team, date or price. ' +
      'Page with offset, or with cursor (the next_cursor of the previous answer) for a walk that neither repeats nor skips rows. ' +
      'A row with is_active false is suspended by the book: its price is frozen and cannot be bet until the line reopens.',
  },
  {
    name: 'get_best_odds',
    title: 'Best odds',
    route: get('/odds/best'),
    noun: 'best prices',
    limit: { default: 25, max: 100 },
    answer: (s, tier, args) => bestOddsList(s.deps, tier, args),
    description:
      'The best price for each outcome across the sportsbooks your key sees, with how many books quote it (suspended prices left out). Use it to shop a line.',
  },
  {
    name: 'compare_odds',
    title: 'Compare odds',
    route: get('/odds/comparison'),
    noun: 'outcomes',
    pageKeys: { default: 50, max: 200 },
    answer: (s, tier, args) => oddsComparison(s.deps, tier, args),
    description:
      "One event's prices side by side: each outcome (e.g. moneyline:home, point_spread:away:2.5) with every book's price, best first. Narrow with market for big events.",
  },
  {
    name: 'get_odds_batch',
    title: 'Odds of many events',
    route: { method: 'POST', path: '/odds/batch' },
    noun: 'events',
    answer: (s, tier, args) => oddsBatch(s.deps, tier, args),
    description:
      "The odds of several events in one call (up to your tier's batch size), keyed by event id; unknown ids are listed in meta.missing.",
  },
  {
    name: 'get_odds_delta',
    title: 'Odds changes',
    route: get('/odds/delta'),
    noun: 'changes',
    limit: { default: 100, max: 500 },
    answer: (s, tier, args) => oddsDeltaPage(s.deps, tier, args),
    description:
      'Prices changed and removed since a time. Pass meta.next_since of a get_odds answer (or of the previous delta) as since; ' +
      'apply data as upserts and removed as deletes by id. A since older than the change window is refused: reload with get_odds.',
  },
  {
    name: 'get_closing_lines',
    title: 'Closing lines',
    route: get('/odds/closing'),
    noun: 'sportsbooks',
    omit: ['books', 'event'],
    required: ['event_id'],
    pageKeys: { default: 10, max: 50, at: ['data', 'books'] },
    answer: (s, tier, args) => closingLines(s.deps, tier, args),
    summary: (body) => {
      const data = (body.data ?? {}) as { event_id?: string; captured_at?: string | null; books?: Record<string, unknown[]> };
      const books = Object.entries(data.books ?? {});
      if (books.length === 0) return `No closing lines for ${String(data.event_id)} yet: they are captured when the event starts.`;
      const lines = books.reduce((n, [, rows]) => n + rows.length, 0);
      return `${lines} closing lines at ${books.length} sportsbooks for ${String(data.event_id)}, captured ${String(data.captured_at)}${morePages('get_closing_lines', body)}`;
    },
    description:
      "An event's closing lines: every book's last pre-match price per market, selection and line, with the sharp books' de-vigged closing " +
      'probability by method. Empty books before the event starts. Pro tier or higher.',
  },
  {
    name: 'get_clv',
    title: 'Closing-line value',
    route: get('/historical/clv'),
    noun: 'groups',
    answer: (s, tier, args) => clvHistory(s.deps, tier, args),
    summary: (body) => {
      const data = (body.data ?? {}) as { group_by?: string; groups?: unknown[]; date_range?: { from?: string; to?: string } };
      return `${data.groups?.length ?? 0} groups by ${String(data.group_by)}, opportunities of events starting ${String(data.date_range?.from)} to ${String(data.date_range?.to)}.`;
    },
    description:
      'How +EV opportunities found before kickoff fared against the close, grouped by sportsbook, sport, league, market, day or reference book: ' +
      'count, average CLV %, share beating the close, and win/loss/push where settled. Sharp tier or higher.',
  },
  {
    name: 'get_splits',
    title: 'Betting splits',
    route: get('/splits'),
    noun: 'splits records',
    limit: { default: 25, max: 100 },
    itemEnums: { sportsbook: SPLITS_BOOKS, market: SPLIT_MARKETS, signal: SPLIT_SIGNALS },
    answer: answeredAs<'/api/v1/splits'>((s, tier, args) => splitsList(s.splits, tier, args)),
    description:
      'Public betting splits per event and book (bet % and handle % per side of the spread, total and moneyline) from a recreational and a ' +
      'sharp-friendly book, with the line at the snapshot and sharp-money signals (rlm: reverse line movement; divergence: handle far from bets).',
  },
  {
    name: 'get_splits_history',
    title: 'Splits history',
    route: get('/splits/history'),
    noun: 'snapshots',
    limit: { default: 50, max: 200 },
    itemEnums: { sportsbook: SPLITS_BOOKS },
    answer: answeredAs<'/api/v1/splits/history'>((s, tier, args) => splitsHistoryList(s.splits, tier, args)),
    summary: (body) => {
      const meta = body.meta ?? {};
      const shown = Array.isArray(body.data) ? body.data.length : 0;
      const matched = typeof meta['matched'] === 'number' ? meta['matched'] : shown;
      const more =
        matched > shown
          ? ` ${matched - shown} older snapshots in the window: call get_splits_history again with an earlier end_time (or a sportsbook).`
          : ' That is all.';
      return `${shown} snapshots from ${String(meta['oldest'])} to ${String(meta['newest'])}.${more}`;
    },
    description:
      "An event's splits over time (a snapshot about every 5 minutes, kept 48 hours), oldest first: how the public and the money moved.",
  },
  {
    name: 'get_game_state',
    title: 'Live game state',
    route: get('/gamestate'),
    noun: 'live games',
    singleIds: true,
    pathArgs: { sport: { type: 'string', description: 'Only the live games of this sport (get_sports lists them).' } },
    pageKeys: { default: 50, max: 200, depth: 2 },
    answer: (s, tier, args: { sport?: string }) => gameStates(s.gameStates, s.deps.catalog, tier, args.sport),
    summary: (body) => {
      const sports = Object.entries((body.data ?? {}) as Record<string, Record<string, unknown>>);
      const games = sports.reduce((n, [, events]) => n + Object.keys(events).length, 0);
      return `${games} live games in ${sports.length} sports${morePages('get_game_state', body)}`;
    },
    description: 'Score, period, clock and possession of every live game, by sport then event id; one sport with `sport`. Enterprise tier.',
  },
  {
    name: 'find_ev_opportunities',
    title: '+EV bets',
    route: get('/opportunities/ev'),
    noun: '+EV opportunities',
    limit: { default: 20, max: 100 },
    answer: (s, tier, args) => evList(s.opportunities, tier, args),
    description:
      'Prices above the fair price of the de-vigged sharp line, with EV %, Kelly % and a confidence score, best first. Pro tier or higher.',
  },
  {
    name: 'get_fair_line',
    title: 'Fair line from a recipe',
    route: get('/fair'),
    noun: 'outcomes',
    answer: answeredAs<'/api/v1/fair'>((s, tier, args) => fairAnswer(s.deps, tier, args)),
    summary: (body) => {
      const data = (body.data ?? {}) as {
        market?: string;
        outcomes?: { selection?: string; fair_status?: string; fair_probability?: number | null }[];
      };
      const parts = (data.outcomes ?? []).map(
        (o) =>
          `${String(o.selection)} ${o.fair_probability === null ? 'unavailable' : `${String(o.fair_probability)} (${String(o.fair_status)})`}`,
      );
      return `Fair ${String(data.market)}: ${parts.join(', ')}.`;
    },
    description:
      "One market's fair probability and price per outcome from a recipe you choose: reference sportsbooks (default: the configured sharp ones), " +
      'equal or freshness-and-margin weights, and the de-vig method; with the band over methods and books and a fair_status per outcome. ' +
      'One-sided markets are priced from a stated margin. Pro tier or higher.',
  },
  {
    name: 'get_event_fair_lines',
    title: "Fair lines of an event's markets",
    route: get('/events/:id/fair'),
    noun: 'markets',
    pathArgs: { id: { type: 'string', description: 'Canonical event id (get_events lists them).' } },
    required: ['id'],
    answer: answeredAs<'/api/v1/events/{id}/fair'>((s, tier, args) =>
      eventFairAnswer(s.deps, tier, (args as { id?: string }).id ?? '', args),
    ),
    summary: (body) => {
      const data = (body.data ?? {}) as { event_id?: string; markets?: unknown[] };
      return `Fair lines of ${String(data.markets?.length ?? 0)} markets of ${String(data.event_id)}.`;
    },
    description:
      'Every game market of one event at its main line, each priced like get_fair_line by one recipe (reference books, weights, de-vig method), with the band and fair_status per outcome. Name other markets (props) with market. Pro tier or higher.',
  },
  {
    name: 'find_arbitrage',
    title: 'Arbitrage',
    route: get('/opportunities/arbitrage'),
    noun: 'arbitrage opportunities',
    limit: { default: 20, max: 100 },
    omit: ['format'],
    answer: (s, tier, args) => arbitrageList(s.opportunities, tier, args),
    description:
      'Sure bets: the best prices across books whose implied probabilities sum below 1, with stakes per leg for a bankroll. Hobby tier or higher.',
  },
  {
    name: 'find_middles',
    title: 'Middles',
    route: get('/opportunities/middles'),
    noun: 'middles',
    limit: { default: 20, max: 100 },
    answer: (s, tier, args) => middlesList(s.opportunities, tier, args),
    description:
      'Opposite sides of a spread or total at different lines at two books, that can both win, with the hit probability and EV. Pro tier or higher.',
  },
  {
    name: 'find_low_hold',
    title: 'Low-hold markets',
    route: get('/opportunities/low_hold'),
    noun: 'low-hold markets',
    limit: { default: 20, max: 100 },
    answer: (s, tier, args) => lowHoldList(s.opportunities, tier, args),
    description: 'Markets whose best prices across books leave the smallest hold (close to a free bet). Hobby tier or higher.',
  },
  {
    name: 'get_account_info',
    title: 'Account',
    route: get('/account'),
    noun: 'account',
    available: (s) => s.accounts !== undefined,
    answer: answeredAs<'/api/v1/account'>((s, _tier, _args, caller) =>
      accountInfo(s.accounts as Accounts, caller.record, s.deps.now?.() ?? Date.now()),
    ),
    summary: (body) => {
      const a = (body.data ?? {}) as {
        tier?: string;
        limits?: { requests_per_minute?: number; max_books?: number };
        data_delay_seconds?: number;
        feature_list?: string[];
      };
      return `Tier ${String(a.tier)}: ${String(a.limits?.requests_per_minute)} requests a minute, up to ${String(a.limits?.max_books)} sportsbooks, ${String(a.data_delay_seconds)} s data delay, features: ${(a.feature_list ?? []).join(', ') || 'none'}.`;
    },
    description:
      "Your key's tier, rate limit, sportsbook allowance, features, streaming allowance and data delay: what the other tools will give you. The key itself is never shown.",
  },
  {
    name: 'log_bet',
    title: 'Log a bet',
    route: { method: 'POST', path: '/bets' },
    noun: 'bet',
    singleIds: true,
    available: (s) => s.bets !== undefined,
    answer: (s, _tier, args, caller) => logBet(s.bets as BetSource, caller.record, args),
    summary: (body) => {
      const b = (body.data ?? {}) as { id?: string; selection?: string; market?: string; odds_american?: number; stake?: number };
      return `Logged ${String(b.id)}: ${String(b.market)} ${String(b.selection)} at ${String(b.odds_american)}, stake ${String(b.stake)}; graded when the event starts.`;
    },
    description:
      'Records a bet in your ledger: event_id, market, selection, line, sportsbook, odds_american (or odds_decimal) and stake, or an ' +
      'odds_row_id / opportunity_id to copy them from. It is graded against the closing line when the event starts and settled on the result. Pro tier or higher.',
  },
  {
    name: 'get_bets',
    title: 'Your bets',
    route: get('/bets'),
    noun: 'bets',
    limit: { default: 20, max: 100 },
    available: (s) => s.bets !== undefined,
    answer: (s, _tier, args, caller) => betList(s.bets as BetSource, caller.record, args),
    description:
      'Your logged bets, newest first, each with its status, closing-line value (against the closing price and the no-vig close, as percent and probability edge), result and profit. Pro tier or higher.',
  },
  {
    name: 'get_bet_summary',
    title: 'Bet summary',
    route: get('/bets/summary'),
    noun: 'groups',
    available: (s) => s.bets !== undefined,
    answer: answeredAs<'/api/v1/bets/summary'>((s, _tier, args, caller) => betSummary(s.bets as BetSource, caller.record, args)),
    summary: (body) => {
      const t = ((body.data ?? {}) as { total?: Record<string, unknown> }).total ?? {};
      return `${String(t['bets'])} bets, stake ${String(t['stake'])}, profit ${String(t['profit'])}, ROI ${String(t['roi_percent'])} %, average CLV ${String(t['average_clv_percent'])} %, beating the close ${String(t['beat_close_share'])}.`;
    },
    description:
      'Count, stake, profit, ROI, average CLV and the share of bets beating the close, in total and by sportsbook, sport, market and month. Pro tier or higher.',
  },
  {
    name: 'create_alert',
    title: 'Create an alert rule',
    route: { method: 'POST', path: '/alerts' },
    noun: 'alert rule',
    available: (s) => s.accounts !== undefined,
    answer: async (s, _tier, args: NewAlertRule, caller) => ({
      success: true,
      data: await createAlertRule(s.accounts as Accounts, caller.record, args, {
        catalog: s.deps.catalog,
        now: s.deps.clock.now(),
        lines: (eventId) => s.deps.board.mainLines(eventId),
      }),
    }),
    summary: (body) => {
      const r = (body.data ?? {}) as { id?: string; secret?: string };
      return `Alert rule ${String(r.id)} created. Its signing secret is ${String(r.secret)}: store it now, it is never shown again.`;
    },
    description:
      "A rule on one opportunity list (ev, arbitrage, middles, low_hold) with that list's filters, or on a line move: a sharp book's main spread or total moving onto, off or across a key number (key_number; key_numbers and key_totals override the sport's), or reverse line movement in the betting splits (reverse_line_move; public_by, min_public_pct, min_line_move, min_probability_move). Every alert is posted to webhook_url (https; http only on loopback), signed with HMAC-SHA256. The answer holds the signing secret, shown only once.",
  },
  {
    name: 'get_alerts',
    title: 'Alert rules',
    route: get('/alerts'),
    noun: 'alert rules',
    available: (s) => s.accounts !== undefined,
    answer: answeredAs<'/api/v1/alerts'>((s, _tier, _args, caller) => ({
      success: true,
      ...alertRuleList((s.accounts as Accounts).keys.rules, caller.record),
    })),
    description: "Your account's alert rules with their filters and webhooks (never their secrets), oldest first.",
  },
  {
    name: 'delete_alert',
    title: 'Delete an alert rule',
    route: { method: 'DELETE', path: '/alerts/:alertId' },
    pathArgs: { alertId: { type: 'string', minLength: 1, maxLength: 100, description: 'The rule id (alert_…), as get_alerts lists it.' } },
    required: ['alertId'],
    noun: 'alert rule',
    available: (s) => s.accounts !== undefined,
    answer: async (s, _tier, args: { alertId: string }, caller) => ({
      success: true,
      data: await deleteAlertRule(s.accounts as Accounts, caller.record, args.alertId),
    }),
    summary: (body) => `Alert rule ${String((body.data as { id?: string } | undefined)?.id)} deleted.`,
    description: 'Deletes one of your alert rules at once; alerts still waiting for delivery go to its dead letter.',
  },
  {
    name: 'get_alert_deliveries',
    title: 'Alert deliveries',
    route: get('/alerts/:alertId/deliveries'),
    pathArgs: { alertId: { type: 'string', minLength: 1, maxLength: 100, description: 'The rule id (alert_…), as get_alerts lists it.' } },
    required: ['alertId'],
    limit: { default: 20, max: 100 },
    noun: 'deliveries',
    available: (s) => s.accounts !== undefined,
    answer: async (s, _tier, args: DeliveriesQuery & { alertId: string }, caller) => ({
      success: true,
      ...(await alertDeliveries(s.deps.store, (s.accounts as Accounts).keys.rules, caller.record, args.alertId, {
        ...(args.outcome === undefined ? {} : { outcome: args.outcome }),
        limit: args.limit ?? 20,
        offset: args.offset ?? 0,
      })),
    }),
    description:
      "One rule's delivery log, newest first: each alert delivered or dead-lettered, with attempts and the last HTTP status. outcome=dead_letter lists the dead letter.",
  },
  {
    name: 'set_account_commission',
    title: 'Set your exchange commission rate',
    route: { method: 'PATCH', path: '/account' },
    noun: 'account',
    available: (s) => s.accounts !== undefined,
    answer: (s, _tier, args: { exchange_commission: number | null }, caller) =>
      setAccountCommission(s.accounts as Accounts, caller.record, args.exchange_commission, s.deps.now?.() ?? Date.now()),
    summary: (body) => {
      const rate = (body.data as { exchange_commission?: number | null } | undefined)?.exchange_commission ?? null;
      return rate === null
        ? "No exchange commission rate of your own: exchange prices are at the exchange's base rate."
        : `Your exchange commission rate is ${rate} %: exchange prices are net of it wherever you give no commission.`;
    },
    description:
      "Stores your exchange account's commission rate, percent (0 to under 100; null clears it). Every tool, REST answer and stream then prices exchange legs at it when you give no commission argument.",
  },
];

const LIST_PARAMS = new Set(['sport', 'league', 'sportsbook', 'add_sportsbook', 'market', 'event', 'devig_book']);
/** REST aliases kept for the reference's clients (alias -> name); a tool offers one name per argument. */
const ALIASES = new Map([['event_id', 'event']]);

/** The catalog's ids as enumerations, so an agent picks valid ids instead of guessing. */
function catalogEnums(catalog: Catalog): Map<string, JsonSchema> {
  const books: JsonSchema = { type: 'string', enum: [...catalog.books.keys()] };
  // Every `market` filter takes the categories (main, spread, total, props) and player_<stat> as well as market ids.
  const markets: JsonSchema = {
    anyOf: [
      { type: 'string', enum: [...MARKET_CATEGORIES.keys(), ...MARKET_IDS] },
      { type: 'string', pattern: '^player_[a-z0-9_]+$' },
    ],
  };
  return new Map<string, JsonSchema>([
    ['sport', { type: 'string', enum: [...catalog.sports.keys()] }],
    ['league', { type: 'string', enum: [...catalog.leagues.keys()] }],
    ['sportsbook', books],
    ['add_sportsbook', books],
    ['devig_book', books],
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
  ['group_by', 'How to group the opportunities.'],
]);

/** A REST description of comma-separated text, reworded for a list argument. */
function asListWords(description: string): string {
  const lead = /^comma-separated\s+/i.exec(description);
  const words = description
    .slice(lead?.[0].length ?? 0)
    .replace(/[,;]?\s*comma-separated/i, '')
    .replace(/;([.:])/g, '$1');
  return lead ? words.charAt(0).toUpperCase() + words.slice(1) : words;
}

/** A route parameter as a tool argument: comma-separated lists become arrays of catalog ids. */
function argumentSchema(
  name: string,
  routeParam: JsonSchema,
  enums: Map<string, JsonSchema>,
  single: boolean,
  own: readonly string[] | undefined,
): JsonSchema {
  const fallback = FALLBACK_DESCRIPTIONS.get(name);
  const param =
    typeof routeParam['description'] === 'string' || fallback === undefined ? routeParam : { ...routeParam, description: fallback };
  const item = own ? { type: 'string', enum: [...own] } : enums.get(name);
  const description = typeof param['description'] === 'string' ? param['description'] : undefined;
  if (!item || !(own || LIST_PARAMS.has(name))) return param;
  if (param['type'] === 'array') return { ...param, items: item };
  if (single) return { ...item, ...(description ? { description } : {}) };
  return {
    type: 'array',
    items: item,
    minItems: 1,
    maxItems: 100,
    description: `${asListWords(description ?? '')} A list (one id is accepted too).`.trim(),
  };
}

/** A tool's input schema, and the arguments it takes as lists that its route takes as comma-separated text. */
function inputSchemaOf(def: QueryToolDef, route: RouteSchema, catalog: Catalog): { schema: JsonSchema; joined: Set<string> } {
  const source = (def.route.method === 'POST' || def.route.method === 'PATCH' ? route.body : route.querystring) ?? {};
  const params = { ...((source['properties'] ?? {}) as Record<string, JsonSchema>), ...def.pathArgs };
  const omit = new Set(def.omit ?? []);
  const enums = catalogEnums(catalog);
  const properties: Record<string, JsonSchema> = {};
  for (const [name, param] of Object.entries(params)) {
    const canonical = ALIASES.get(name);
    if (omit.has(name) || (canonical !== undefined && canonical in params && !omit.has(canonical))) continue;
    properties[name] = argumentSchema(name, param, enums, def.singleIds === true, def.itemEnums?.[name]);
  }
  const joined = new Set(
    Object.keys(properties).filter((name) => properties[name]?.['type'] === 'array' && params[name]?.['type'] !== 'array'),
  );
  if (def.limit && properties['limit']) {
    properties['limit'] = {
      type: 'integer',
      minimum: 1,
      maximum: def.limit.max,
      default: def.limit.default,
      description: `Page size, 1 to ${def.limit.max}.`,
    };
  }
  if (def.pageKeys) {
    properties['limit'] = {
      type: 'integer',
      minimum: 1,
      maximum: def.pageKeys.max,
      default: def.pageKeys.default,
      description: `How many ${def.noun} to return, 1 to ${def.pageKeys.max}.`,
    };
    properties['offset'] = {
      type: 'integer',
      minimum: 0,
      maximum: 1_000_000,
      default: 0,
      description: `${def.noun[0]?.toUpperCase() ?? ''}${def.noun.slice(1)} to skip.`,
    };
  }
  const required = [...((source['required'] ?? []) as string[]).filter((r) => !omit.has(r)), ...(def.required ?? [])];
  return { schema: { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false }, joined };
}

function outputSchemaOf(def: QueryToolDef, route: RouteSchema): JsonSchema {
  // A tool that creates answers as its route's 201 does.
  const ok = route.response?.['200'] ?? route.response?.['201'] ?? {};
  const content = ok['content'] as Record<string, { schema?: JsonSchema }> | undefined;
  const answer = content?.['application/json']?.schema ?? ok;
  // A route that answers several JSON shapes (arbitrage: rows, or CSV text as JSON) lists the rows first.
  const variants = answer['anyOf'] as JsonSchema[] | undefined;
  const schema = answer['type'] === undefined && variants ? (variants.find((v) => v['type'] === 'object') ?? answer) : answer;
  const { description: _description, ...rest } = schema;
  if (!def.pageKeys) return rest;
  return { ...rest, properties: { ...(rest['properties'] as object), pagination: paginationSchema } };
}

/** A window of an object's entries, one level (key -> value) or two (sport -> event -> value) deep. */
function pageEntries(
  object: Record<string, unknown>,
  depth: 1 | 2,
  offset: number,
  limit: number,
): { page: Record<string, unknown>; total: number } {
  // Keys come from the data (participant names, event ids): no prototype behind them.
  const page = Object.create(null) as Record<string, unknown>;
  let total = 0;
  for (const [key, value] of Object.entries(object)) {
    if (depth === 1) {
      if (total >= offset && total < offset + limit) page[key] = value;
      total++;
      continue;
    }
    for (const [inner, leaf] of Object.entries(value as Record<string, unknown>)) {
      if (total >= offset && total < offset + limit) ((page[key] ??= Object.create(null)) as Record<string, unknown>)[inner] = leaf;
      total++;
    }
  }
  return { page, total };
}

/** One page of an object answer's entries (in the answer's order), with the paging a list would have. */
function pageOfKeys(def: QueryToolDef, body: Envelope, limit: number, offset: number): Envelope {
  const at = def.pageKeys?.at ?? ['data'];
  const parents: Record<string, unknown>[] = [body];
  for (const name of at) parents.push((parents[parents.length - 1]?.[name] ?? {}) as Record<string, unknown>);
  const { page, total } = pageEntries(parents[parents.length - 1] ?? {}, def.pageKeys?.depth ?? 1, offset, limit);
  // Rebuild the path down to the paged object, copying (the answer may be shared).
  let value: unknown = page;
  for (let i = at.length - 1; i >= 0; i--) value = { ...parents[i], [at[i] as string]: value };
  return { ...(value as Envelope), pagination: { ...pagination(limit, offset, total) } };
}

/** Arguments in the shape of the route's parameters: lists as the comma-separated text REST takes. */
function asRouteQuery(args: Record<string, unknown>, joined: ReadonlySet<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined) continue;
    out[name] = Array.isArray(value) && joined.has(name) ? value.join(',') : value;
  }
  return out;
}

const morePages = (name: string, body: Envelope): string => {
  const p = body.pagination;
  return p?.['has_more'] === true ? `. More available: call ${name} again with offset=${String(p['next_offset'])}.` : '.';
};

/** One short paragraph an agent can act on: what came back and how to get more. */
export function summarize(def: Pick<QueryToolDef, 'name' | 'noun'>, body: Envelope): string {
  const data = body.data;
  const p = body.pagination;
  const meta = body.meta ?? {};
  if (Array.isArray(data)) {
    const total =
      typeof meta['total'] === 'number'
        ? meta['total']
        : ((meta['summary'] as Record<string, unknown> | undefined)?.['count'] ?? undefined);
    const offset = typeof p?.['offset'] === 'number' ? p['offset'] : 0;
    const removed = Array.isArray(body['removed']) ? body['removed'].length : 0;
    let text = `${data.length} ${def.noun}${removed > 0 ? ` and ${removed} removals` : ''}${typeof total === 'number' ? ` of ${total}` : ''}${offset > 0 ? ` from offset ${offset}` : ''}.`;
    if (p?.['has_more'] === true) {
      if (typeof meta['next_since'] === 'string' && def.name === 'get_odds_delta')
        text += ` More available: call ${def.name} again with since=${meta['next_since']}.`;
      else if (typeof p['next_cursor'] === 'string')
        text += ` More available: call ${def.name} again with cursor=${p['next_cursor']} (same filters).`;
      else text += ` More available: call ${def.name} again with offset=${String(p['next_offset'])}.`;
    } else if (data.length > 0) text += ' That is all.';
    return text;
  }
  if (data && typeof data === 'object') {
    const groups = Object.values(data as Record<string, unknown>);
    const rows = groups.reduce<number>((n, g) => n + (Array.isArray(g) ? g.length : 0), 0);
    const missing =
      Array.isArray(meta['missing']) && meta['missing'].length > 0 ? ` Missing or without odds: ${meta['missing'].join(', ')}.` : '';
    const more = p?.['has_more'] === true ? ` More available: call ${def.name} again with offset=${String(p['next_offset'])}.` : '';
    return `${groups.length} ${def.noun} with ${rows} prices in all.${missing}${more}`;
  }
  return 'Done.';
}

/** REST messages name query parameters and body fields; a tool's caller knows them as arguments. */
/** The query tools the sources can answer, described by their routes' schemas. */
export function queryTools(sources: ToolSources, schemas: RouteSchemas, prefix: string): ToolSpec[] {
  const tools: ToolSpec[] = [];
  for (const def of QUERY_TOOLS) {
    if (def.available && !def.available(sources)) continue;
    const url = `${prefix}${def.route.path}`;
    const route = schemas.get(def.route.method, url);
    // A renamed or removed route must not leave its tool described by nothing.
    if (!route) throw new Error(`MCP tool ${def.name}: no route ${def.route.method} ${url}; update QUERY_TOOLS`);
    const { schema: inputSchema, joined } = inputSchemaOf(def, route, sources.deps.catalog);
    tools.push({
      name: def.name,
      title: def.title,
      description: def.description,
      inputSchema,
      outputSchema: outputSchemaOf(def, route),
      async run(args, caller): Promise<ToolOutcome> {
        const { limit, offset, ...rest } = args;
        const query = queryAtCallerRate(
          asRouteQuery(def.pageKeys ? rest : args, joined),
          def.route.method === 'GET' ? route.querystring : route.body,
          sources.accounts?.keys.account(caller.record.accountId),
        );
        try {
          const answer = await def.answer(sources, caller.record.tier, query as never, caller);
          // As on the wire; the tool's own paging of an object answer goes on top, where REST has none.
          const wire = onTheWire(answer, new Date().toISOString());
          const body = def.pageKeys ? pageOfKeys(def, wire, limit as number, offset as number) : wire;
          return { ok: true, structured: body, summary: def.summary ? def.summary(body) : summarize(def, body) };
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          if (err.status >= 500)
            return {
              ok: false,
              message: `The ${def.name} tool cannot answer right now (${err.code}): ${asArgumentMessage(err.message)}; retry later`,
            };
          return { ok: false, message: asArgumentMessage(err.message), refusal: refusalOf(err) };
        }
      },
    });
  }
  return tools;
}
