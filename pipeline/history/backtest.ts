import { LEAGUES } from '../../schemas/index.js';
import type { CanonicalEvent, DevigMethod, EvOpportunity, MarketId, OddsTick, SelectionType } from '../../schemas/index.js';
import { clvPercent, deVig, DEVIG_METHODS } from '../odds-math/index.js';
import { settle } from '../closing/index.js';
import { OpportunityProcessor } from '../opportunities/index.js';
import { SnapshotProcessor } from '../snapshot/index.js';
import type { HistoricalMatch, HistoricalPrice, ParsedHistory } from './history.js';

export interface BacktestOptions {
  /** The book whose de-vigged opening line is the fair price (and whose close grades CLV). */
  referenceBook: string;
  /** EV thresholds in percent: a bet counts under method m and threshold t when its EV under m is above t. */
  thresholds: readonly number[];
  methods?: readonly DevigMethod[];
  /** Markets replayed (all three of a football-data file by default). */
  markets?: readonly MarketId[];
}

/** One +EV price the engine found at the opening, graded. */
export interface BacktestBet {
  matchId: string;
  book: string;
  market: MarketId;
  selection: SelectionType;
  line: number | null;
  decimal: number;
  /** Per method: EV % and Kelly % as the engine computed them. */
  evPercent: Record<DevigMethod, number>;
  kellyPercent: Record<DevigMethod, number>;
  /** Per method: against the reference's de-vigged close; null when it did not close that line. */
  clvPercent: Record<DevigMethod, number | null>;
  /** Profit of a one-unit stake on the result (a quarter handicap is two half stakes). */
  profit: number;
}

/** The figures of one method at one threshold. */
export interface BacktestRow {
  method: DevigMethod;
  threshold: number;
  bets: number;
  /** Bets with a closing line to grade against. */
  gradedBets: number;
  averageClvPercent: number | null;
  /** Share of the graded bets whose CLV is above zero. */
  beatCloseShare: number | null;
  flat: RoiEstimate;
  kelly: RoiEstimate;
}

/**
 * Return on the money staked, in percent, with a 95 % interval: normal approximation, its
 * standard error clustered by match (a ratio estimator's), because the bets of one match share
 * its result and are not independent. Null interval with fewer than two matches.
 */
export interface RoiEstimate {
  staked: number;
  roiPercent: number | null;
  interval: [number, number] | null;
}

/** The markets a backtest grades (full-game results settle them), with their outcomes in the engines' order. */
const OUTCOMES: Readonly<Record<string, readonly SelectionType[]>> = {
  moneyline: ['home', 'draw', 'away'],
  total_points: ['over', 'under'],
  point_spread: ['home', 'away'],
};
export const BACKTEST_MARKETS = Object.keys(OUTCOMES) as readonly MarketId[];
/** Opening prices are taken to stand a day before kickoff (only staleness flags read the clock). */
const OPENING_LEAD_MS = 24 * 3600_000;
const Z_95 = 1.959964;

/**
 * Replays each match's opening prices through the real snapshot and opportunity processors with
 * `referenceBook` as the only reference, keeps the +EV prices they publish, and grades each
 * against the reference's closing line and the final score.
 */
export function backtestBets(history: ParsedHistory, options: BacktestOptions): BacktestBet[] {
  const methods = options.methods ?? DEVIG_METHODS;
  const markets = new Set<MarketId>(options.markets ?? BACKTEST_MARKETS);
  const prices = pricesByMatch(history.prices, markets);
  const snapshot = new SnapshotProcessor();
  const engine = new OpportunityProcessor({ referenceBooks: [options.referenceBook], fallbackReferenceBooks: [] });
  const bets: BacktestBet[] = [];
  const matches = [...history.matches].sort((a, b) => a.kickoff - b.kickoff || a.matchId.localeCompare(b.matchId));
  for (const match of matches) {
    const own = prices.get(match.matchId) ?? [];
    const now = match.kickoff - OPENING_LEAD_MS;
    const event = eventOf(match, now);
    const found = new Map<string, EvOpportunity>();
    const inputs: Parameters<OpportunityProcessor['handleBatch']>[0][number][] = [{ type: 'event', event }];
    for (const p of own) {
      if (p.phase !== 'opening') continue;
      const change = snapshot.handle(tickOf(p, now), now);
      if (change) inputs.push({ type: 'odds', change });
    }
    for (const c of engine.handleBatch(inputs, now)) {
      if (c.opportunity.kind === 'ev' && c.type !== 'expire') found.set(c.opportunity.id, c.opportunity);
    }
    // The event ends: its state and rows leave both processors.
    engine.handle({ type: 'event', event: { ...event, status: 'final', updatedAt: now } }, now);
    for (const p of own) if (p.phase === 'opening') snapshot.handle({ ...tickOf(p, now), priceAmerican: null, status: 'suspended' }, now);
    const closing = closingFair(own, options.referenceBook, methods);
    for (const o of [...found.values()].sort((a, b) => a.id.localeCompare(b.id)))
      bets.push(graded(o, match, methods, closing.get(`${o.market}|${o.selection}|${String(o.line)}`)));
  }
  return bets;
}

/** The table: every method at every threshold, in that order. */
export function backtestTable(bets: readonly BacktestBet[], options: BacktestOptions): BacktestRow[] {
  const rows: BacktestRow[] = [];
  for (const method of options.methods ?? DEVIG_METHODS) {
    for (const threshold of options.thresholds) {
      const chosen = bets.filter((b) => b.evPercent[method] > threshold);
      const clvs = chosen.map((b) => b.clvPercent[method]).filter((c): c is number => c !== null);
      rows.push({
        method,
        threshold,
        bets: chosen.length,
        gradedBets: clvs.length,
        averageClvPercent: clvs.length === 0 ? null : clvs.reduce((s, c) => s + c, 0) / clvs.length,
        beatCloseShare: clvs.length === 0 ? null : clvs.filter((c) => c > 0).length / clvs.length,
        flat: roi(chosen.map((b) => ({ matchId: b.matchId, stake: 1, profit: b.profit }))),
        kelly: roi(chosen.map((b) => ({ matchId: b.matchId, stake: b.kellyPercent[method] / 100, profit: b.profit }))),
      });
    }
  }
  return rows;
}

/** ROI of stakes with the interval of `RoiEstimate`. */
export function roi(stakes: readonly { matchId: string; stake: number; profit: number }[]): RoiEstimate {
  const byMatch = new Map<string, { staked: number; won: number }>();
  let staked = 0;
  let won = 0;
  for (const s of stakes) {
    const m = byMatch.get(s.matchId) ?? { staked: 0, won: 0 };
    m.staked += s.stake;
    m.won += s.stake * s.profit;
    byMatch.set(s.matchId, m);
    staked += s.stake;
    won += s.stake * s.profit;
  }
  if (!(staked > 0)) return { staked, roiPercent: null, interval: null };
  const ratio = won / staked;
  const n = byMatch.size;
  if (n < 2) return { staked, roiPercent: ratio * 100, interval: null };
  let squares = 0;
  for (const m of byMatch.values()) squares += (m.won - ratio * m.staked) ** 2;
  const se = Math.sqrt((n / (n - 1)) * squares) / staked;
  return { staked, roiPercent: ratio * 100, interval: [(ratio - Z_95 * se) * 100, (ratio + Z_95 * se) * 100] };
}

/** Profit of one unit on a full-game result; a quarter handicap splits the stake over the two lines beside it. */
export function unitProfit(
  bet: { market: MarketId; selection: SelectionType; line: number | null; decimal: number },
  final: { home: number; away: number },
): number {
  const line = bet.line;
  if (bet.market === 'point_spread' && line !== null && !Number.isInteger(line * 2))
    return (unitProfit({ ...bet, line: line - 0.25 }, final) + unitProfit({ ...bet, line: line + 0.25 }, final)) / 2;
  const result = settle(bet, final);
  return result === 'win' ? bet.decimal - 1 : result === 'loss' ? -1 : 0;
}

function graded(
  o: EvOpportunity,
  match: HistoricalMatch,
  methods: readonly DevigMethod[],
  close: Record<DevigMethod, number> | undefined,
): BacktestBet {
  const evPercent = {} as Record<DevigMethod, number>;
  const kellyPercent = {} as Record<DevigMethod, number>;
  const clv = {} as Record<DevigMethod, number | null>;
  for (const m of methods) {
    evPercent[m] = o.methods[m].evPercent;
    kellyPercent[m] = o.methods[m].kellyPercent;
    const p = close?.[m];
    clv[m] = p === undefined ? null : clvPercent(p, o.priceDecimal);
  }
  const bet = { market: o.market, selection: o.selection, line: o.line, decimal: o.priceDecimal };
  return {
    matchId: match.matchId,
    book: o.book,
    ...bet,
    evPercent,
    kellyPercent,
    clvPercent: clv,
    profit: unitProfit(bet, { home: match.homeGoals, away: match.awayGoals }),
  };
}

/** `market|selection|line` -> the reference's closing fair probability by method, where it closed the whole market. */
function closingFair(
  prices: readonly HistoricalPrice[],
  book: string,
  methods: readonly DevigMethod[],
): Map<string, Record<DevigMethod, number>> {
  const out = new Map<string, Record<DevigMethod, number>>();
  for (const [market, outcomes] of Object.entries(OUTCOMES)) {
    const rows = outcomes.map((s) =>
      prices.find((p) => p.phase === 'closing' && p.book === book && p.market === market && p.selection === s),
    );
    if (rows.some((r) => r === undefined)) continue;
    const closed = rows as HistoricalPrice[];
    const fair = {} as Record<DevigMethod, number[]>;
    try {
      for (const m of methods)
        fair[m] = deVig(
          m,
          closed.map((r) => r.decimal),
        );
    } catch {
      continue;
    }
    closed.forEach((r, i) => {
      const byMethod = {} as Record<DevigMethod, number>;
      for (const m of methods) byMethod[m] = fair[m][i] as number;
      out.set(`${market}|${r.selection}|${String(r.line)}`, byMethod);
    });
  }
  return out;
}

function pricesByMatch(prices: readonly HistoricalPrice[], markets: ReadonlySet<MarketId>): Map<string, HistoricalPrice[]> {
  const out = new Map<string, HistoricalPrice[]>();
  for (const p of prices) {
    if (!markets.has(p.market)) continue;
    const list = out.get(p.matchId);
    if (list) list.push(p);
    else out.set(p.matchId, [p]);
  }
  return out;
}

function eventOf(match: HistoricalMatch, now: number): CanonicalEvent {
  return {
    id: match.matchId,
    sport: LEAGUES.find((l) => l.id === match.league)?.sport ?? 'soccer',
    league: match.league,
    homeTeamId: match.homeTeam,
    awayTeamId: match.awayTeam,
    startTime: match.kickoff,
    status: 'upcoming',
    isLive: false,
    externalIds: {},
    updatedAt: now,
  };
}

/**
 * A decimal price as the tick the engines read. American odds are kept unrounded so that the
 * decimal the engines convert back is the file's own (to the 4 places the snapshot keeps).
 */
function tickOf(p: HistoricalPrice, now: number): OddsTick {
  return {
    eventId: p.matchId,
    book: p.book,
    market: p.market,
    selection: p.selection,
    line: p.line,
    participant: null,
    statCategory: null,
    priceAmerican: p.decimal >= 2 ? (p.decimal - 1) * 100 : -100 / (p.decimal - 1),
    status: 'open',
    ts: now,
    isLive: false,
    bookEventId: p.matchId,
    selectionId: null,
  };
}
