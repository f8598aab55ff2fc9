import type { MiddleOpportunity, OddsRow } from '../../schemas/index.js';
import { middleHitProbability, spreadMiddle, totalsMiddle } from '../odds-math/index.js';
import { anyLive, comboIdentity } from './arbitrage.js';
import { stakeCapacity } from './capacity.js';
import { middleSigma } from './config.js';
import type { Candidate, EngineContext } from './context.js';
import { commonFields, withKind } from './context.js';
import { NO_ROWS } from './inputs.js';
import { WIDTH, selectionIndex } from './line-group.js';
import { canonicalLine, decimalOf, legOf, lineKey, round } from './state.js';

/**
 * Middles in one family (spreads or totals, every line): one side at one book, the opposite side
 * at another book and a different line, such that some whole-number result wins both. Totals:
 * Over L and Under M with L < M. Spreads: home at handicap h and away at handicap a with
 * -h < a, i.e. the home margin X wins both when -h < X < a. Quarter lines (Asian handicaps, which
 * split the stake) are left out. The hit model is odds-math's: X normal around the family's
 * consensus line (the median of the lines the reference books quote, or of every quoted line when
 * no reference book quotes it), sigma by league and market (config.ts).
 */

function usableLine(line: number | null): line is number {
  return line !== null && Number.isInteger(line * 2);
}

/** How many rows quote one usable line, over every book and over the reference books. */
interface LineCount {
  line: number;
  rows: number;
  sharpRows: number;
}

/**
 * The median of the multiset in which each line appears as many times as `weight` says (`n`:
 * the sum of the weights, at least 1): the same number as sorting every row's line and taking
 * the middle, without a list per row.
 */
function weightedMedian(counts: readonly LineCount[], weight: (c: LineCount) => number, n: number): number {
  const mid = Math.floor(n / 2);
  return n % 2 === 1 ? nthLine(counts, weight, mid) : (nthLine(counts, weight, mid - 1) + nthLine(counts, weight, mid)) / 2;
}

/** The line at position k (from 0) of the rows' lines in ascending order; `counts` ascending by line. */
function nthLine(counts: readonly LineCount[], weight: (c: LineCount) => number, k: number): number {
  let seen = 0;
  for (const c of counts) {
    seen += weight(c);
    if (k < seen) return c.line;
  }
  return 0;
}

interface Pair {
  first: OddsRow;
  second: OddsRow;
  /** Sum of the implied probabilities of the two prices. */
  impliedSum: number;
  /** Model EV for ranking: exact for half-point lines (no push), close otherwise. */
  rankEv: number;
}

const byRank = (a: Pair, b: Pair): number =>
  b.rankEv - a.rankEv || (a.first.book + '|' + a.second.book).localeCompare(b.first.book + '|' + b.second.book);

/** `byRank(candidate, current) < 0` without building the candidate first. */
function ranksBefore(rankEv: number, first: OddsRow, second: OddsRow, current: Pair): boolean {
  const d = current.rankEv - rankEv;
  if (d) return d < 0;
  return (first.book + '|' + second.book).localeCompare(current.first.book + '|' + current.second.book) < 0;
}

const SHARP_SETS = new WeakMap<readonly string[], ReadonlySet<string>>();

function sharpSet(books: readonly string[]): ReadonlySet<string> {
  let set = SHARP_SETS.get(books);
  if (!set) {
    set = new Set(books);
    SHARP_SETS.set(books, set);
  }
  return set;
}

/** One side's rows at each usable line, lines ascending. */
interface Side {
  line: number;
  rows: OddsRow[];
  /** 1 / decimal of each row, computed once per recompute instead of once per pair. */
  implied: number[];
}

function sideOf(line: number, rows: OddsRow[]): Side {
  const implied: number[] = [];
  for (const r of rows) implied.push(1 / decimalOf(r));
  return { line, rows, implied };
}

/**
 * Stakes proportional to 1/d return 1/S whichever leg wins alone and 2/S when both win, so
 * within one pair of lines the cheapest combination (lowest S) is the best; hit probability is a
 * function of the lines only. Per pair of lines the engine keeps the best combination over every
 * book and the best within each book scope, and builds only those. The best is found by one scan
 * in the ranking order (`byRank`), never by sorting every combination.
 */
export function middleCandidates(ctx: EngineContext, out: Candidate[]): void {
  const { family, options } = ctx;
  if (family.family === 'binary' || family.market === 'moneyline') return;
  // A middle needs two different lines (at one line the window is empty whatever the prices):
  // a family quoted at one line, like most props, is settled without looking at its rows.
  let usableLines = 0;
  for (const g of family.lines.values()) if (usableLine(g.line)) usableLines++;
  if (usableLines < 2) return;
  const isTotal = family.family === 'total';
  const firstSelection = isTotal ? 'over' : 'home';
  const secondSelection = isTotal ? 'under' : 'away';
  const firstAt = selectionIndex(firstSelection);
  const secondAt = selectionIndex(secondSelection);
  const sharp = sharpSet(options.referenceBooks);
  // Every row's canonical line counts once (the median is over rows, not over distinct lines).
  const counts: LineCount[] = [];
  let rowCount = 0;
  let sharpCount = 0;
  const firsts: Side[] = [];
  const seconds: Side[] = [];
  for (const g of family.lines.values()) {
    const line = g.line;
    if (!usableLine(line)) continue;
    let firstRows: OddsRow[] | null = null;
    let secondRows: OddsRow[] | null = null;
    let rows = 0;
    let sharpRows = 0;
    for (let slot = 0; slot < g.books.length; slot++) {
      const size = g.sizes[slot] as number;
      rows += size;
      if (sharp.has(g.books[slot] as string)) sharpRows += size;
      const a = g.rows[slot * WIDTH + firstAt];
      if (a != null) (firstRows ??= []).push(a);
      const b = g.rows[slot * WIDTH + secondAt];
      if (b != null) (secondRows ??= []).push(b);
    }
    counts.push({ line, rows, sharpRows });
    rowCount += rows;
    sharpCount += sharpRows;
    if (firstRows) firsts.push(sideOf(line, firstRows));
    if (secondRows) seconds.push(sideOf(line, secondRows));
  }
  if (rowCount < 2) return;
  counts.sort(byCountLine);
  const consensus =
    sharpCount > 0 ? weightedMedian(counts, (c) => c.sharpRows, sharpCount) : weightedMedian(counts, (c) => c.rows, rowCount);
  // X is the total, or the home margin: a home handicap of -3.5 says the home side wins by 3.5.
  const mean = isTotal ? consensus : 0 - consensus;
  const sigma = middleSigma(ctx.league, family.market, family.family, consensus);
  firsts.sort(byLine);
  seconds.sort(byLine);

  const scopes = options.scopes;
  const best: (Pair | null)[] = new Array<Pair | null>(scopes.length).fill(null);
  const kept: Pair[] = [];
  for (const { line: l1, rows: firstRows, implied: firstImplieds } of firsts) {
    for (const { line: l2, rows: secondRows, implied: secondImplieds } of seconds) {
      // Totals: Over l1, Under l2, window l1 < X < l2. Spreads (canonical = home handicap):
      // home at l1 covers when X > -l1, away at canonical l2 covers when X < -l2.
      const lower = isTotal ? l1 : 0 - l1;
      const upper = isTotal ? l2 : 0 - l2;
      if (Math.floor(lower) + 1 > Math.ceil(upper) - 1) continue;
      const hit = middleHitProbability(lower, upper, mean, sigma);
      best.fill(null);
      for (let a = 0; a < firstRows.length; a++) {
        const first = firstRows[a] as OddsRow;
        const firstImplied = firstImplieds[a] as number;
        for (let b = 0; b < secondRows.length; b++) {
          const second = secondRows[b] as OddsRow;
          if (first.book === second.book) continue;
          const impliedSum = firstImplied + (secondImplieds[b] as number);
          const rankEv = (1 / impliedSum - 1 + hit / impliedSum) * 100;
          // Only a pair that leads some scope becomes an object (this loop is the hot one).
          let pair: Pair | null = null;
          for (let k = 0; k < scopes.length; k++) {
            const allowed = scopes[k];
            if (allowed && !(allowed.has(first.book) && allowed.has(second.book))) continue;
            const current = best[k];
            if (current && !ranksBefore(rankEv, first, second, current)) continue;
            best[k] = pair ??= { first, second, impliedSum, rankEv };
          }
        }
      }
      // The best pair over every book, and the best within each book scope, each once.
      for (let k = 0; k < best.length; k++) {
        const pair = best[k];
        if (pair && best.indexOf(pair) === k) kept.push(pair);
      }
    }
  }
  kept.sort(byRank);
  const n = Math.min(kept.length, options.maxMiddlesPerFamily);
  for (let i = 0; i < n; i++) {
    const { first, second } = kept[i] as Pair;
    const rows = [first, second];
    const { id, values } = comboIdentity(ctx, 'middle', rows, mean, sigma);
    out.push({
      id,
      rows,
      refRows: NO_ROWS,
      values,
      scope: 'middle',
      build: () => buildMiddle(ctx, id, first, second, isTotal, mean, sigma),
    });
  }
}

const byLine = (a: Side, b: Side): number => a.line - b.line;
const byCountLine = (a: LineCount, b: LineCount): number => a.line - b.line;

function buildMiddle(
  ctx: EngineContext,
  id: string,
  first: OddsRow,
  second: OddsRow,
  isTotal: boolean,
  mean: number,
  sigma: number,
): MiddleOpportunity {
  const a = { line: first.line ?? 0, decimalOdds: decimalOf(first) };
  const b = { line: second.line ?? 0, decimalOdds: decimalOf(second) };
  const result = isTotal ? totalsMiddle(a, b, { sigma, mean, bankroll: 1 }) : spreadMiddle(a, b, { sigma, mean, bankroll: 1 });
  const legs = [legOf(first, round(result.stakes[0], 6)), legOf(second, round(result.stakes[1], 6))];
  const situation = `${ctx.eventId}|${ctx.family.key}|${lineKey(canonicalLine(first))}|${lineKey(canonicalLine(second))}`;
  const ev = round(result.evPercent, 4);
  return withKind<MiddleOpportunity>(commonFields(ctx, id, situation, legs, legs, anyLive([first, second]), ev), {
    kind: 'middle',
    lowerBound: result.lowerBound,
    upperBound: result.upperBound,
    windowSize: result.windowWidth,
    windowOutcomes: result.windowOutcomes,
    hitProbability: round(result.hitProbability, 6),
    evPercent: ev,
    missProfitPercent: round(result.missProfitPercent, 4),
    maxProfitPercent: round(result.maxProfitPercent, 4),
    worstCaseProfitPercent: round(result.worstCaseProfitPercent, 4),
    model: { mean: round(mean, 4), sigma: round(sigma, 4) },
    ...stakeCapacity([first, second], result.stakes),
  });
}
