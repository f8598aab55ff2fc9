import { SPORTSBOOKS, bettableRow, selectionFamily } from '../schemas/index.js';
import type { CanonicalEvent, LeagueDef, MarketId, OddsChange, OddsRow, Opportunity, RawTick, SelectionType } from '../schemas/index.js';
import { DEFAULT_FRESHNESS_POLICY, percentile } from '../pipeline/freshness/index.js';
import { hold } from '../pipeline/odds-math/index.js';
import {
  canonicalLine,
  defaultReferenceBooks,
  lineKey,
  outcomesOf,
  resolveOptions,
  staleClockOfRecord,
  staleness,
} from '../pipeline/opportunities/index.js';

/**
 * The market statistics `make calibrate` compares between the simulator and the recordings,
 * read off what the pipeline's own processors produce: the snapshot changelog (rows) and the
 * opportunity processor's active list. Only full-game moneylines, spreads and totals count,
 * the markets the recordings have, so that both sides measure the same thing.
 *
 * A market is one line of one event's market (home -3.5, over 44.5, the moneyline) that at least
 * two books price completely at a sample time; its phase is the phase of its rows.
 */

export type Phase = 'prematch' | 'live';
export const PHASES: readonly Phase[] = ['prematch', 'live'];
const ALL_PHASES: ReadonlySet<Phase> = new Set(PHASES);
export const COMPARED_MARKETS: readonly MarketId[] = ['moneyline', 'point_spread', 'total_points'];
const COMPARED = new Set<MarketId>(COMPARED_MARKETS);

/** A sharp move: the lead reference's no-vig probability moved this far since its last move. */
export const SHARP_MOVE = 0.015;
/** A soft book has followed once it moved at least this share of the sharp move the same way... */
const FOLLOW_SHARE = 0.5;
/** ...within this long; later or never counts as not followed. */
const FOLLOW_HORIZON_MS = 6 * 3_600_000;

/**
 * A reference price counts as an in-play price only when its book set or confirmed it this long
 * after the listed start. In the recordings no reference book prices games in play: LowVig,
 * BetOnline (and BetUS) keep their pre-game listing for up to 16 minutes after the start, each last
 * updated between two minutes before and two minutes after it, then drop the game. A live +EV row
 * or a live sharp move measured from such a price compares in-play prices with the closing line,
 * not with a sharp line in play (docs/simulator.md); five minutes clears the two.
 */
export const IN_PLAY_AFTER_MS = 5 * 60_000;

export interface PhaseStats {
  /** Market-samples: markets summed over sample times. */
  markets: number;
  /** Percent of market-samples with at least one arbitrage. */
  arbitrageRate: number | null;
  /** Best arbitrage of each market that has one, profit percent. */
  arbitrageProfitP50: number | null;
  arbitrageProfitP90: number | null;
  /**
   * How long a market's arbitrage stands: a run is the samples of the phase in a row that show the
   * market with an arbitrage, timed from the first to the last of them (0: seen at one sample);
   * p50 and the longest, minutes, and how many runs. A run still standing at the last sample is
   * counted as it stood then. Sampled, so a run is known to the sampling gap.
   */
  arbitrageRunP50Minutes: number | null;
  arbitrageRunMaxMinutes: number | null;
  arbitrageRuns: number;
  /** Median single-book hold, percent, per market type. */
  holdP50: Record<string, number | null>;
  /**
   * +EV rows at min_ev 2 (power de-vig, the API's default) per 100 market-samples, against
   * references priced in the phase (in play: `IN_PLAY_AFTER_MS`); null when no market-sample of
   * the phase had such a reference (the recordings in play), since then the figure is not measured.
   */
  evPer100Markets: number | null;
  /** Market-samples with a reference book's complete market priced in the phase. */
  referencedMarkets: number;
  /**
   * In play, +EV rows at min_ev 2 whose references were last priced before the game was
   * `IN_PLAY_AFTER_MS` old (a closing line left standing), per 100 market-samples: what the
   * recordings' live +EV rows all are. Null before the game.
   */
  pregameReferenceEvPer100: number | null;
  /**
   * Percent of +EV rows (min_ev 0, the default list) flagged stale at the sample time, among the
   * rows whose stale threshold its book's measured cadence set: past the freshness ledger's
   * warm-up. Until a book has enough confirmation ages in the ledger's window its threshold is the
   * floor (60 s pre-match, 10 s live), which a run meets at its start (and a recording polled hourly
   * in play never leaves): every pre-match row the recordings flag stale is of that kind, and so a
   * figure over all rows measured how many snapshots a run held, not the market
   * (docs/simulator.md). Null when no row was past the warm-up.
   */
  staleShare: number | null;
  /** The same over every +EV row, floor-judged ones included (the figure before stop 47): shown, not judged. */
  staleShareWithFloor: number | null;
  /** Soft books' time to follow a sharp move, seconds, and how many follows that is out of how many chances. */
  followP50: number | null;
  followP95: number | null;
  follows: number;
  followChances: number;
  /**
   * How far the market's consensus moneyline moves: the median over books of each book's no-vig
   * probability of the first outcome, compared between samples of the same market 10-75 minutes
   * apart, in points of probability, scaled to a 15-minute gap as a random walk (x sqrt(15 min /
   * gap)); p50 and p90 over those pairs, and how many pairs.
   */
  consensusMoveP50: number | null;
  consensusMoveP90: number | null;
  consensusPairs: number;
  /**
   * How far each book's no-vig probability of a market's first outcome sits from the median over
   * the books pricing the same line at a sample, points, p50 and p90 per market type: how widely
   * the books disperse around the market (docs/simulator.md, "Stop 48").
   */
  offConsensusP50: Record<string, number | null>;
  offConsensusP90: Record<string, number | null>;
  /**
   * How long ago each book's market (one book's moneyline, spread or total of one event) was last
   * set or confirmed at the sample times, seconds, p50 and p95, and the percent older than five
   * minutes: in a recording the snapshot time minus the market's `last_update`, in the simulator
   * minus the book's own last tick of it. Sampled at fixed times, so each price is weighted by how
   * long it stood. In play only prices confirmed after the start count: a book without live odds
   * leaves its pre-game listing standing in the recordings for up to 16 minutes after the start,
   * which is no in-play cadence (docs/simulator.md, "Stop 49"). Null when nothing was sampled.
   */
  confirmationAgeP50: number | null;
  confirmationAgeP95: number | null;
  confirmationAgeOver5Min: number | null;
}

/** One book's market as it stood at a sample time: when the book last set or confirmed it, and its event's phase and start. */
export interface ConfirmedMarket {
  ts: number;
  isLive: boolean;
  startTime: number;
}

/** Ages above this are counted apart (`confirmationAgeOver5Min`): the recordings' books rarely leave a pre-match price that long. */
const LONG_AGE_MS = 5 * 60_000;

/**
 * The simulator's open prices (`MarketSimulator.snapshot()`, each tick at the time its book last
 * set or confirmed it) as one entry per book's market of the compared markets: a book reprices a
 * market's outcomes together, so they share their time.
 */
export function confirmedMarkets(ticks: readonly RawTick[]): ConfirmedMarket[] {
  const byMarket = new Map<string, ConfirmedMarket>();
  for (const t of ticks) {
    if (t.status !== 'open' || !COMPARED.has(t.market)) continue;
    const key = `${t.book}|${t.bookEventId}|${t.market}|${t.participant ?? ''}|${t.statCategory ?? ''}`;
    const seen = byMarket.get(key);
    if (seen === undefined) byMarket.set(key, { ts: t.ts, isLive: t.isLive, startTime: t.startTime });
    else seen.ts = Math.max(seen.ts, t.ts);
  }
  return [...byMarket.values()];
}

/** Consensus samples of a market closer than this are not compared: their move is mostly the snapshot's spacing. */
const CONSENSUS_MIN_GAP_MS = 10 * 60_000;
/** ...nor farther apart than this (the recordings' hourly gaps in play are the longest kept). */
const CONSENSUS_MAX_GAP_MS = 75 * 60_000;
/** The gap the consensus moves are scaled to: the recordings' median live snapshot spacing. */
const CONSENSUS_SCALE_MS = 15 * 60_000;

interface Accumulator {
  markets: number;
  arbMarkets: number;
  arbProfits: number[];
  /** The phase's samples so far, each market's arbitrage run still standing (by group key), and the runs ended, ms. */
  samples: number;
  arbRuns: Map<string, { first: number; last: number; sample: number }>;
  arbRunLengths: number[];
  holds: Map<string, number[]>;
  evRows: number;
  referencedMarkets: number;
  pregameReferenceEvRows: number;
  positiveEv: number;
  staleEv: number;
  /** +EV rows judged by a measured threshold (past the ledger's warm-up), and how many of them stale. */
  measuredEv: number;
  measuredStaleEv: number;
  follows: number[];
  chances: number;
  consensusMoves: number[];
  /** Per market type. */
  offConsensus: Map<string, number[]>;
  /** Confirmation ages of books' markets at the sample times, ms. */
  ages: number[];
}

function emptyAccumulator(): Accumulator {
  return {
    markets: 0,
    arbMarkets: 0,
    arbProfits: [],
    samples: 0,
    arbRuns: new Map(),
    arbRunLengths: [],
    holds: new Map(),
    evRows: 0,
    referencedMarkets: 0,
    pregameReferenceEvRows: 0,
    positiveEv: 0,
    staleEv: 0,
    measuredEv: 0,
    measuredStaleEv: 0,
    follows: [],
    chances: 0,
    consensusMoves: [],
    offConsensus: new Map(),
    ages: [],
  };
}

/** One book's no-vig probability of a market's first outcome, each time it changed. */
interface Point {
  at: number;
  p: number;
  isLive: boolean;
}

/** Market group: event, market, participant, stat, selection family and canonical line. */
function groupKey(
  eventId: string,
  m: { market: MarketId; participant: string | null; statCategory: string | null },
  family: string,
  line: number | null,
): string {
  return `${eventId}|${m.market}|${m.participant ?? ''}|${m.statCategory ?? ''}|${family}|${lineKey(line)}`;
}

function rowGroupKey(row: OddsRow): string {
  return groupKey(row.eventId, row, selectionFamily(row.selection), canonicalLine(row));
}

const decimal = (row: OddsRow): number => row.priceDecimal;

export class MarketStatsObserver {
  /** Bettable rows of the compared markets, by row key. */
  private readonly board = new Map<string, OddsRow>();
  /** The same rows by `group \u0000 book`, then selection: one book's market. */
  private readonly markets = new Map<string, Map<SelectionType, OddsRow>>();
  private readonly leagues = new Map<string, LeagueDef>();
  private readonly eventLeague = new Map<string, string>();
  private readonly eventStart = new Map<string, number>();
  /** `group \u0000 book` -> points, and the event of each. */
  private readonly series = new Map<string, Point[]>();
  private readonly seriesEvent = new Map<string, string>();
  private readonly acc: Record<Phase, Accumulator> = { prematch: emptyAccumulator(), live: emptyAccumulator() };
  private readonly sharp: ReadonlySet<string>;
  /** The books the opportunity engines take a fair price from, the fallback included. */
  private readonly references: ReadonlySet<string>;
  private readonly leadRank: ReadonlyMap<string, number>;
  /** Moneyline group -> the consensus it was last compared from. */
  private readonly consensusAnchor = new Map<string, { at: number; p: number; phase: Phase }>();

  constructor(leagues: readonly LeagueDef[]) {
    for (const l of leagues) this.leagues.set(l.id, l);
    this.sharp = new Set(SPORTSBOOKS.filter((b) => b.isSharp).map((b) => b.id));
    this.leadRank = new Map(defaultReferenceBooks().map((b, i) => [b, i]));
    const engines = resolveOptions();
    this.references = new Set([...engines.referenceBooks, ...engines.fallbackReferenceBooks]);
  }

  event(e: CanonicalEvent): void {
    this.eventLeague.set(e.id, e.league);
    this.eventStart.set(e.id, e.startTime);
  }

  /** Whether a price set or confirmed at `ts` is a price of the phase: before the game, or well into it. */
  private pricedIn(phase: Phase, ts: number, start: number | undefined): boolean {
    return phase === 'prematch' || start === undefined || ts >= start + IN_PLAY_AFTER_MS;
  }

  /** One change of the snapshot changelog. */
  change(c: OddsChange): void {
    const row = bettableRow(c);
    const before = this.board.get(c.key);
    if (before !== undefined) {
      this.board.delete(c.key);
      const k = `${rowGroupKey(before)}\u0000${before.book}`;
      const market = this.markets.get(k);
      market?.delete(before.selection);
      if (market?.size === 0) this.markets.delete(k);
    }
    if (row === null || !COMPARED.has(row.market)) return;
    this.board.set(c.key, row);
    const k = `${rowGroupKey(row)}\u0000${row.book}`;
    let market = this.markets.get(k);
    if (market === undefined) {
      market = new Map();
      this.markets.set(k, market);
    }
    market.set(row.selection, row);
    if (before !== undefined && before.priceAmerican === row.priceAmerican) return;
    this.track(k, row);
  }

  /** Records the book's no-vig probability of the group's first outcome when its market is complete. */
  private track(key: string, row: OddsRow): void {
    const rows = this.complete(key, row);
    if (rows === null) return;
    const p = firstOutcomeNoVig(rows);
    let points = this.series.get(key);
    if (points === undefined) {
      points = [];
      this.series.set(key, points);
      this.seriesEvent.set(key, row.eventId);
    }
    const last = points[points.length - 1];
    if (last !== undefined && Math.abs(last.p - p) < 1e-9) return;
    points.push({ at: Math.max(last?.at ?? -Infinity, row.oddsChangedAt), p, isLive: row.isLive });
  }

  /** The book's rows of every outcome of the row's market, in order, or null when one is missing. */
  private complete(key: string, row: OddsRow): OddsRow[] | null {
    const market = this.markets.get(key);
    if (market === undefined) return null;
    const rows: OddsRow[] = [];
    for (const s of this.outcomes(row)) {
      const r = market.get(s);
      if (r === undefined) return null;
      rows.push(r);
    }
    return rows;
  }

  private outcomes(row: OddsRow): SelectionType[] {
    const league = this.leagues.get(this.eventLeague.get(row.eventId) ?? '');
    return outcomesOf({ family: selectionFamily(row.selection), market: row.market }, league);
  }

  /**
   * Takes the board and the active opportunities as they stand at `now` into the statistics, for
   * the phases given: a run that shows one phase's board without the other's (the sampled
   * simulator) samples only the phase it just showed, so that a board nobody looked at again is
   * not counted again.
   *
   * The confirmation ages are read off the board's rows (each at its `ts`), unless `confirmed`
   * gives the books' own times: the snapshot-sampled simulator times its rows when the poller
   * collected them, as a recording does, which says how far apart the snapshots were taken, not
   * how often the books confirm.
   */
  sample(
    now: number,
    active: readonly Opportunity[],
    phases: ReadonlySet<Phase> = ALL_PHASES,
    confirmed?: readonly ConfirmedMarket[],
  ): void {
    if (confirmed !== undefined) for (const m of confirmed) this.age(now, m, phases);
    // Per group: its books' complete markets, and each one's no-vig probability of the first outcome.
    const groups = new Map<string, { phase: Phase; market: MarketId; complete: number; referenced: boolean; noVig: number[] }>();
    for (const [key, market] of this.markets) {
      const row = market.values().next().value;
      if (row === undefined) continue;
      const rows = this.complete(key, row);
      if (rows === null) continue;
      const group = key.slice(0, key.indexOf('\u0000'));
      const phase: Phase = row.isLive ? 'live' : 'prematch';
      if (!phases.has(phase)) continue;
      const start = this.eventStart.get(row.eventId);
      if (confirmed === undefined)
        this.age(now, { ts: Math.max(...rows.map((r) => r.ts)), isLive: row.isLive, startTime: start ?? -Infinity }, phases);
      const g = groups.get(group) ?? { phase, market: row.market, complete: 0, referenced: false, noVig: [] };
      g.complete++;
      // The group's phase, not the row's: a reference's pre-game row may still stand beside in-play ones.
      if (this.references.has(row.book) && rows.every((r) => this.pricedIn(g.phase, r.ts, start))) g.referenced = true;
      g.noVig.push(firstOutcomeNoVig(rows));
      groups.set(group, g);
      const holds = this.acc[phase].holds;
      const list = holds.get(row.market) ?? [];
      list.push(100 * hold(rows.map(decimal)));
      holds.set(row.market, list);
    }
    const markets = new Map<string, Phase>();
    for (const [key, g] of groups) {
      if (g.complete < 2) continue;
      markets.set(key, g.phase);
      if (g.referenced) this.acc[g.phase].referencedMarkets++;
    }
    for (const phase of markets.values()) this.acc[phase].markets++;
    for (const [key, g] of groups) {
      if (g.complete < 2) continue;
      const consensus = percentile(
        g.noVig.sort((a, b) => a - b),
        0.5,
      );
      if (consensus === null) continue;
      const off = this.acc[g.phase].offConsensus;
      const list = off.get(g.market) ?? [];
      for (const q of g.noVig) list.push(100 * Math.abs(q - consensus));
      off.set(g.market, list);
      if (g.market === 'moneyline') this.consensusMove(key, now, g.phase, consensus);
    }

    const bestArb = new Map<string, number>();
    for (const o of active) {
      if (!COMPARED.has(o.market)) continue;
      if (o.kind === 'arbitrage') {
        const key = groupKey(o.eventId, o, o.family, o.line);
        // In the phase of its event, as +EV rows: once a game has started its arbitrage is a live
        // one, even when a leg is a pre-game row some snapshot has not replaced yet (the recordings
        // mark every row of a started game in play, so there it always is).
        const phase: Phase = o.event.isLive ? 'live' : 'prematch';
        if (markets.get(key) !== phase) continue;
        bestArb.set(key, Math.max(bestArb.get(key) ?? -Infinity, o.profitPercent));
      } else if (o.kind === 'ev') {
        const ev = o.methods.power.evPercent;
        if (ev < 0) continue;
        const phase: Phase = o.event.isLive ? 'live' : 'prematch';
        if (!phases.has(phase)) continue;
        const acc = this.acc[phase];
        acc.positiveEv++;
        // The fair price is as old as its oldest input.
        const referenceTs = Math.min(...o.references.map((r) => r.ts));
        if (ev >= 2 && this.pricedIn(phase, referenceTs, o.event.startTime)) acc.evRows++;
        else if (ev >= 2) acc.pregameReferenceEvRows++;
        const stale = staleness(o.oldestOddsTs, now, o.event.isLive, staleClockOfRecord(o)).possiblyStale;
        if (stale) acc.staleEv++;
        // A threshold above the floor is one the book's measured cadence set; at the floor the
        // ledger had too few confirmation ages of the book yet (a pre-match book confirming more
        // than once every 30 s would also sit there: none does, recorded or simulated).
        if (o.staleAfterSeconds !== null && o.staleAfterSeconds > DEFAULT_FRESHNESS_POLICY.floorSeconds[phase]) {
          acc.measuredEv++;
          if (stale) acc.measuredStaleEv++;
        }
      }
    }
    for (const phase of phases) this.acc[phase].samples++;
    for (const [key, profit] of bestArb) {
      const acc = this.acc[markets.get(key) ?? 'prematch'];
      acc.arbMarkets++;
      acc.arbProfits.push(profit);
      const run = acc.arbRuns.get(key);
      if (run !== undefined && run.sample === acc.samples - 1) {
        run.last = now;
        run.sample = acc.samples;
      } else {
        if (run !== undefined) acc.arbRunLengths.push(run.last - run.first);
        acc.arbRuns.set(key, { first: now, last: now, sample: acc.samples });
      }
    }
  }

  /** One book's market's confirmation age at `now`, in the phase of its event; in play only when confirmed since the start. */
  private age(now: number, m: ConfirmedMarket, phases: ReadonlySet<Phase>): void {
    const phase: Phase = m.isLive ? 'live' : 'prematch';
    if (!phases.has(phase) || (m.isLive && m.ts < m.startTime)) return;
    // A clock a little ahead of the snapshot's is no age, not a negative one.
    this.acc[phase].ages.push(Math.max(0, now - m.ts));
  }

  /** Compares a moneyline's consensus with the one it was last compared from, when far enough apart. */
  private consensusMove(group: string, now: number, phase: Phase, p: number): void {
    const anchor = this.consensusAnchor.get(group);
    if (anchor !== undefined && anchor.phase === phase && now - anchor.at < CONSENSUS_MIN_GAP_MS) return;
    this.consensusAnchor.set(group, { at: now, p, phase });
    if (anchor === undefined || anchor.phase !== phase || now - anchor.at > CONSENSUS_MAX_GAP_MS) return;
    this.acc[phase].consensusMoves.push(100 * Math.abs(p - anchor.p) * Math.sqrt(CONSENSUS_SCALE_MS / (now - anchor.at)));
  }

  /** Follow times of soft books after each move of a group's lead reference book. */
  private follows(): void {
    const byGroup = new Map<string, Map<string, Point[]>>();
    for (const [key, points] of this.series) {
      const [group = '', book = ''] = key.split('\u0000');
      let books = byGroup.get(group);
      if (books === undefined) {
        books = new Map();
        byGroup.set(group, books);
      }
      books.set(book, points);
    }
    for (const [group, books] of byGroup) {
      let lead: string | null = null;
      for (const b of books.keys()) {
        const r = this.leadRank.get(b);
        if (r !== undefined && (lead === null || r < (this.leadRank.get(lead) ?? Infinity))) lead = b;
      }
      const sharpPoints = lead === null ? undefined : books.get(lead);
      if (sharpPoints === undefined || sharpPoints.length < 2) continue;
      const start = this.eventStart.get(this.seriesEvent.get(`${group}\u0000${lead}`) ?? '');
      let anchor = sharpPoints[0]?.p ?? 0;
      for (const move of sharpPoints.slice(1)) {
        const size = move.p - anchor;
        if (Math.abs(size) < SHARP_MOVE) continue;
        anchor = move.p;
        const phase: Phase = move.isLive ? 'live' : 'prematch';
        // A lead book's "live" price set at the start is its closing line, not a move in play.
        if (!this.pricedIn(phase, move.at, start)) continue;
        const acc = this.acc[phase];
        for (const [book, points] of books) {
          if (this.sharp.has(book)) continue;
          const follow = followTime(points, move.at, size);
          if (follow === undefined) continue;
          acc.chances++;
          if (follow !== null) acc.follows.push(follow / 1000);
        }
      }
    }
  }

  result(): Record<Phase, PhaseStats> {
    this.follows();
    const one = (a: Accumulator, live: boolean): PhaseStats => {
      const profits = [...a.arbProfits].sort((x, y) => x - y);
      const runs = [...a.arbRunLengths, ...[...a.arbRuns.values()].map((r) => r.last - r.first)].sort((x, y) => x - y);
      const follows = [...a.follows].sort((x, y) => x - y);
      const moves = [...a.consensusMoves].sort((x, y) => x - y);
      const ages = [...a.ages].sort((x, y) => x - y);
      const seconds = (ms: number | null): number | null => (ms === null ? null : ms / 1000);
      const holdP50: Record<string, number | null> = {};
      const offConsensusP50: Record<string, number | null> = {};
      const offConsensusP90: Record<string, number | null> = {};
      for (const m of COMPARED_MARKETS) {
        holdP50[m] = percentile(
          [...(a.holds.get(m) ?? [])].sort((x, y) => x - y),
          0.5,
        );
        const off = [...(a.offConsensus.get(m) ?? [])].sort((x, y) => x - y);
        offConsensusP50[m] = percentile(off, 0.5);
        offConsensusP90[m] = percentile(off, 0.9);
      }
      const per = (n: number, d: number, k: number): number | null => (d === 0 ? null : (k * n) / d);
      return {
        markets: a.markets,
        arbitrageRate: per(a.arbMarkets, a.markets, 100),
        arbitrageProfitP50: percentile(profits, 0.5),
        arbitrageProfitP90: percentile(profits, 0.9),
        arbitrageRunP50Minutes: runs.length === 0 ? null : (percentile(runs, 0.5) ?? 0) / 60_000,
        arbitrageRunMaxMinutes: runs.length === 0 ? null : (runs[runs.length - 1] ?? 0) / 60_000,
        arbitrageRuns: runs.length,
        holdP50,
        evPer100Markets: a.referencedMarkets === 0 ? null : per(a.evRows, a.markets, 100),
        referencedMarkets: a.referencedMarkets,
        pregameReferenceEvPer100: live ? per(a.pregameReferenceEvRows, a.markets, 100) : null,
        staleShare: per(a.measuredStaleEv, a.measuredEv, 100),
        staleShareWithFloor: per(a.staleEv, a.positiveEv, 100),
        followP50: percentile(follows, 0.5),
        followP95: percentile(follows, 0.95),
        follows: follows.length,
        followChances: a.chances,
        consensusMoveP50: percentile(moves, 0.5),
        consensusMoveP90: percentile(moves, 0.9),
        consensusPairs: moves.length,
        offConsensusP50,
        offConsensusP90,
        confirmationAgeP50: seconds(percentile(ages, 0.5)),
        confirmationAgeP95: seconds(percentile(ages, 0.95)),
        confirmationAgeOver5Min: per(ages.filter((x) => x > LONG_AGE_MS).length, ages.length, 100),
      };
    };
    return { prematch: one(this.acc.prematch, false), live: one(this.acc.live, true) };
  }
}

/** A book's no-vig probability of its market's first outcome (multiplicative: the consensus only needs a common yardstick). */
function firstOutcomeNoVig(rows: readonly OddsRow[]): number {
  const implied = rows.map((r) => 1 / r.priceDecimal);
  return (implied[0] ?? 0) / implied.reduce((a, b) => a + b, 0);
}

/**
 * Milliseconds from the sharp move at `at` until the soft book's price moved `FOLLOW_SHARE` of it
 * the same way; null when it did not within the horizon; undefined when the book had no price
 * before the move (no chance to follow).
 */
function followTime(points: readonly Point[], at: number, size: number): number | null | undefined {
  let i = -1;
  for (let k = 0; k < points.length && (points[k]?.at ?? Infinity) <= at; k++) i = k;
  const before = points[i];
  if (before === undefined) return undefined;
  for (let k = i + 1; k < points.length; k++) {
    const p = points[k];
    if (p === undefined || p.at - at > FOLLOW_HORIZON_MS) return null;
    if ((p.p - before.p) * Math.sign(size) >= FOLLOW_SHARE * Math.abs(size)) return p.at - at;
  }
  return null;
}
