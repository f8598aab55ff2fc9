import { TIERS, TIER_NAMES } from '../../schemas/index.js';
import type { BetRecord, CanonicalEvent, ClosingLine, OddsRow, Opportunity, SelectionType } from '../../schemas/index.js';
import type { Clock } from '../../pipeline/clock.js';
import { closingLinesOfEvents, endedGamesOf } from '../../pipeline/closing/index.js';
import type { EndedGame } from '../../pipeline/closing/index.js';
import { gradeBet } from '../../pipeline/bets/index.js';
import type { BetGrade } from '../../pipeline/bets/index.js';
import { decimalToAmerican, roundedDecimalOdds } from '../../pipeline/odds-math/index.js';
import type { OlapStore } from '../../pipeline/store/index.js';
import type { AuthenticatedKey } from '../accounts/index.js';
import type { Bets, NewBet } from '../bets/index.js';
import { presentBet } from '../contract/index.js';
import { csv, isoTime, pagination } from '../contract/index.js';
import type { QueryOf, ReplyOf, RouteTypes } from '../contract/index.js';
import { ApiError } from '../errors.js';
import type { Catalog } from '../views/index.js';
import { requireTierFor, tierRefusal } from './access.js';
import { parseDay } from './closing-answers.js';
import { unknownId } from './parse-filters.js';
import { fromStore } from './store-failure.js';

/**
 * The bet ledger as every interface answers it (`/bets`, MCP log_bet / get_bets /
 * get_bet_summary). An account only ever reaches its own bets: every lookup goes through the
 * caller's account id. Grades are made when read, from the captured closes (`closing_odds`) and
 * the last game state (`game_state`) of the bets' events, by the recipe each bet carries.
 */
export interface BetSource {
  bets: Bets;
  board: { event(id: string): CanonicalEvent | undefined; rowsOf(eventId: string): OddsRow[] };
  catalog: Catalog;
  clock: Clock;
  store: OlapStore;
  /** Odds rows by public id (copying a bet from a row). */
  rows: { row(id: string): OddsRow | undefined };
  /** Active opportunities by id (copying a bet from a +EV opportunity). */
  opportunities: { get(id: string): Opportunity | undefined };
}

export type LogBetBody = RouteTypes<'/api/v1/bets', 'post'>['Body'];
export type BetListQuery = QueryOf<'/api/v1/bets'>;
export type BetSummaryQuery = QueryOf<'/api/v1/bets/summary'>;

const badBody = (field: string, message: string): ApiError => new ApiError('invalid_request', `Invalid body field '${field}': ${message}`);

/** The outcome and price a bet copies from a row or opportunity, or takes from the body. */
interface Outcome {
  eventId: string;
  market: BetRecord['market'];
  selection: SelectionType;
  line: number | null;
  participant: string | null;
  statCategory: string | null;
  book: string;
  priceAmerican: number | null;
  sourceId: string | null;
}

function outcomeOf(src: BetSource, body: LogBetBody): Outcome {
  if (body.odds_row_id !== undefined && body.opportunity_id !== undefined)
    throw badBody('opportunity_id', 'give odds_row_id or opportunity_id, not both');
  const own = {
    line: body.line ?? null,
    participant: body.participant ?? null,
    statCategory: body.stat_category ?? null,
  };
  if (body.odds_row_id !== undefined) {
    const r = src.rows.row(body.odds_row_id);
    if (!r) throw badBody('odds_row_id', `no odds row '${body.odds_row_id}' on the board (ids are those of /odds)`);
    return {
      ...r,
      priceAmerican: r.priceAmerican,
      sourceId: body.odds_row_id,
      ...(body.sportsbook === undefined ? {} : { book: body.sportsbook }),
    };
  }
  if (body.opportunity_id !== undefined) {
    const o = src.opportunities.get(body.opportunity_id);
    if (!o) throw badBody('opportunity_id', `no active opportunity '${body.opportunity_id}'`);
    if (o.kind !== 'ev') throw badBody('opportunity_id', `a ${o.kind} opportunity has several legs: log each leg from its odds row`);
    return {
      eventId: o.eventId,
      market: o.market,
      selection: o.selection,
      line: o.line,
      participant: o.participant,
      statCategory: o.statCategory,
      book: o.book,
      priceAmerican: o.priceAmerican,
      sourceId: o.id,
    };
  }
  for (const field of ['event_id', 'market', 'selection', 'sportsbook'] as const)
    if (body[field] === undefined) throw badBody(field, 'required unless odds_row_id or opportunity_id is given');
  return {
    eventId: body.event_id as string,
    market: body.market as BetRecord['market'],
    selection: body.selection as SelectionType,
    ...own,
    book: body.sportsbook as string,
    priceAmerican: null,
    sourceId: null,
  };
}

/** Which selections and lines a market takes, where settlement depends on them. */
function checkSelection(o: Outcome, threeWay: boolean): void {
  const sides: SelectionType[] = threeWay && o.market === 'moneyline' ? ['home', 'draw', 'away'] : ['home', 'away'];
  const allowed: ReadonlyMap<string, readonly SelectionType[]> = new Map([
    ['moneyline', sides],
    ['point_spread', ['home', 'away']],
    ['total_points', ['over', 'under']],
  ]);
  const ok = allowed.get(o.market);
  if (ok && !ok.includes(o.selection)) throw badBody('selection', `${o.market} takes ${ok.join(', ')}`);
  if (o.market === 'moneyline' && o.line !== null) throw badBody('line', 'a moneyline has no line');
  if ((o.market === 'point_spread' || o.market === 'total_points') && o.line === null)
    throw badBody('line', `a ${o.market} bet needs its line`);
}

/** The price taken: the body's (American or decimal), else the copied one. */
function priceOf(body: LogBetBody, copied: number | null): { priceAmerican: number; priceDecimal: number } {
  if (body.odds_american !== undefined && body.odds_decimal !== undefined)
    throw badBody('odds_decimal', 'give odds_american or odds_decimal, not both');
  if (body.odds_american !== undefined) {
    if (Math.abs(body.odds_american) < 100) throw badBody('odds_american', 'American odds are at most -100 or at least +100');
    return { priceAmerican: body.odds_american, priceDecimal: roundedDecimalOdds(body.odds_american) };
  }
  if (body.odds_decimal !== undefined) return { priceAmerican: decimalToAmerican(body.odds_decimal), priceDecimal: body.odds_decimal };
  if (copied === null) throw badBody('odds_american', 'the price taken is required (odds_american or odds_decimal)');
  return { priceAmerican: copied, priceDecimal: roundedDecimalOdds(copied) };
}

/** Logs a bet for the caller's account: checked against the board and the catalog, then written like a key. */
export async function logBet(src: BetSource, auth: AuthenticatedKey, body: LogBetBody): Promise<ReplyOf<'/api/v1/bets', 'post', 201>> {
  requireTierFor(auth.tier, 'betLedger');
  const { catalog, clock } = src;
  const o = outcomeOf(src, body);
  const event = src.board.event(o.eventId);
  if (!event) throw new ApiError('not_found', `No event '${o.eventId}' on the board: bets are logged on events we price`);
  if (!catalog.books.has(o.book)) throw badBody('sportsbook', unknownId(o.book, catalog.books, 'sportsbook'));
  const sharpBook = body.sharp_book ?? null;
  if (sharpBook !== null && !catalog.books.has(sharpBook)) throw badBody('sharp_book', unknownId(sharpBook, catalog.books, 'sportsbook'));
  checkSelection(o, catalog.leagues.get(event.league)?.threeWay === true);
  const priced = src.board
    .rowsOf(event.id)
    .some((r) => r.market === o.market && r.participant === o.participant && r.statCategory === o.statCategory);
  if (!priced)
    throw badBody(
      'market',
      `event '${event.id}' has no ${o.market} market${o.participant === null ? '' : ` for '${o.participant}'`} on the board`,
    );
  const now = clock.now();
  const placedAt = body.placed_at === undefined ? now : parseDay('placed_at', body.placed_at);
  if (placedAt > now) throw badBody('placed_at', 'must not be in the future');
  const price = priceOf(body, o.priceAmerican);
  const max = TIERS[auth.tier].maxBets;
  const held = src.bets.ledger.countOf(auth.accountId);
  if (held >= max) {
    const more = TIER_NAMES.find((t) => TIERS[t].maxBets > max);
    const message = `The ${auth.tier} tier holds ${max} bets per account and this account has ${held}: delete some${more ? `, or move to the ${more} tier (${TIERS[more].maxBets})` : ''}`;
    throw more ? tierRefusal(auth.tier, more, message) : new ApiError('feature_required', message, {}, { tier: auth.tier });
  }
  const bet: NewBet = {
    accountId: auth.accountId,
    eventId: event.id,
    sport: event.sport,
    league: event.league,
    eventStartTime: event.startTime,
    market: o.market,
    participant: o.participant,
    statCategory: o.statCategory,
    selection: o.selection,
    line: o.line,
    book: o.book,
    ...price,
    stake: body.stake,
    placedAt,
    sourceId: o.sourceId,
    devigMethod: body.devig_method ?? 'power',
    sharpBook,
  };
  const record = await fromStore(() => src.bets.log(bet), BET_STORE);
  const [graded] = await gradeAll(src, [record]);
  return { success: true, data: presentBet(record, graded as BetGrade) };
}

const BET_STORE = { message: (cause: string) => `The bet ledger's store cannot answer right now: ${cause.slice(0, 200)}` };

/** The account's bets matching the filters (all but status), newest placed first. */
function matching(src: BetSource, auth: AuthenticatedKey, q: Omit<BetListQuery, 'limit' | 'offset' | 'status'>): BetRecord[] {
  const books = csv(q.sportsbook);
  const sports = csv(q.sport);
  const leagues = csv(q.league);
  const markets = csv(q.market);
  const from = q.from === undefined ? null : parseDay('from', q.from);
  const to = q.to === undefined ? null : parseDay('to', q.to);
  return src.bets.ledger
    .betsOf(auth.accountId)
    .filter(
      (b) =>
        (!books || books.has(b.book)) &&
        (!sports || sports.has(b.sport)) &&
        (!leagues || leagues.has(b.league)) &&
        (!markets || markets.has(b.market)) &&
        (q.event_id === undefined || b.eventId === q.event_id) &&
        (from === null || b.placedAt >= from) &&
        (to === null || b.placedAt < to),
    );
}

/** Grades bets: one read of the closes and one of the ended games, for the events that started. */
async function gradeAll(src: BetSource, bets: readonly BetRecord[]): Promise<BetGrade[]> {
  const now = src.clock.now();
  const started = [...new Set(bets.filter((b) => b.eventStartTime <= now).map((b) => b.eventId))];
  const [closes, ended] = await fromStore(() => Promise.all([closingLinesOfEvents(src.store, started), endedGamesOf(src.store, started)]));
  const closesOf = new Map<string, ClosingLine[]>();
  for (const c of closes) {
    const list = closesOf.get(c.eventId);
    if (list) list.push(c);
    else closesOf.set(c.eventId, [c]);
  }
  const endedOf = new Map<string, EndedGame>(ended.map((g) => [g.eventId, g]));
  return bets.map((b) => gradeBet(b, closesOf.get(b.eventId) ?? [], endedOf.get(b.eventId) ?? null, src.catalog.leagues.get(b.league)));
}

export async function betList(src: BetSource, auth: AuthenticatedKey, q: BetListQuery): Promise<ReplyOf<'/api/v1/bets'>> {
  requireTierFor(auth.tier, 'betLedger');
  const bets = matching(src, auth, q);
  const grades = await gradeAll(src, bets);
  const rows = bets.flatMap((b, i) => {
    const g = grades[i] as BetGrade;
    return q.status === undefined || q.status === g.status ? [presentBet(b, g)] : [];
  });
  const limit = q.limit ?? 50;
  const offset = q.offset ?? 0;
  return {
    success: true,
    data: rows.slice(offset, offset + limit),
    pagination: pagination(limit, offset, rows.length),
    meta: { count: Math.max(0, Math.min(limit, rows.length - offset)), total: rows.length },
  };
}

export async function deleteBet(src: BetSource, auth: AuthenticatedKey, id: string): Promise<ReplyOf<'/api/v1/bets/{id}', 'delete'>> {
  requireTierFor(auth.tier, 'betLedger');
  const deleted = await fromStore(() => src.bets.delete(auth.accountId, id), BET_STORE);
  // Another account's bet is as unknown as a made-up id.
  if (!deleted) throw new ApiError('not_found', `No bet '${id}' in this account`);
  return { success: true, data: { id, deleted: true, deleted_at: isoTime(deleted.deletedAt ?? src.clock.now()) } };
}

type Stats = ReplyOf<'/api/v1/bets/summary'>['data']['total'];

/** Count, stake, profit, ROI, CLV and the share beating the close of some graded bets. */
export function betStats(bets: readonly { bet: BetRecord; grade: BetGrade }[]): Stats {
  let stake = 0;
  let settled = 0;
  let settledStake = 0;
  let profit = 0;
  let clvSum = 0;
  let graded = 0;
  let beat = 0;
  let priceSum = 0;
  let priced = 0;
  let expected = 0;
  for (const { bet, grade } of bets) {
    stake += bet.stake;
    if (grade.result !== null) {
      settled++;
      if (grade.result !== 'void') settledStake += bet.stake;
      profit += grade.profit ?? 0;
    }
    if (grade.noVigClvPercent !== null) {
      graded++;
      clvSum += grade.noVigClvPercent;
      if (grade.noVigClvPercent > 0) beat++;
      expected += grade.expectedProfit ?? 0;
    }
    if (grade.priceClvPercent !== null) {
      priced++;
      priceSum += grade.priceClvPercent;
    }
  }
  const r4 = (x: number): number => Math.round(x * 1e4) / 1e4;
  return {
    bets: bets.length,
    stake: r4(stake),
    settled,
    settled_stake: r4(settledStake),
    profit: r4(profit),
    roi_percent: settledStake > 0 ? r4((profit / settledStake) * 100) : null,
    graded,
    average_clv_percent: graded > 0 ? r4(clvSum / graded) : null,
    average_price_clv_percent: priced > 0 ? r4(priceSum / priced) : null,
    beat_close_share: graded > 0 ? r4(beat / graded) : null,
    expected_profit: r4(expected),
  };
}

type Graded = { bet: BetRecord; grade: BetGrade };

function groupedBy(graded: readonly Graded[], keyOf: (b: BetRecord) => string): Map<string, Graded[]> {
  const groups = new Map<string, Graded[]>();
  for (const g of graded) {
    const key = keyOf(g.bet);
    const list = groups.get(key);
    if (list) list.push(g);
    else groups.set(key, [g]);
  }
  return groups;
}

const byStake = (groups: Map<string, Graded[]>): (Stats & { key: string })[] =>
  [...groups.entries()].map(([key, list]) => ({ key, ...betStats(list) })).sort((a, b) => b.stake - a.stake || (a.key < b.key ? -1 : 1));

export async function betSummary(src: BetSource, auth: AuthenticatedKey, q: BetSummaryQuery): Promise<ReplyOf<'/api/v1/bets/summary'>> {
  requireTierFor(auth.tier, 'betLedger');
  const bets = matching(src, auth, q);
  const grades = await gradeAll(src, bets);
  const graded = bets.map((bet, i) => ({ bet, grade: grades[i] as BetGrade }));
  const month = (b: BetRecord): string => isoTime(b.placedAt).slice(0, 7);
  return {
    success: true,
    data: {
      total: betStats(graded),
      by_sportsbook: byStake(groupedBy(graded, (b) => b.book)),
      by_sport: byStake(groupedBy(graded, (b) => b.sport)),
      by_market: byStake(groupedBy(graded, (b) => b.market)),
      by_month: [...groupedBy(graded, month).entries()]
        .sort((a, b) => (a[0] < b[0] ? -1 : 1))
        .map(([key, list]) => ({ key, ...betStats(list) })),
    },
  };
}
