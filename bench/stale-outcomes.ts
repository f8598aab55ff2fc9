import type { RecordedSnapshot } from '../pipeline/feeds/theoddsapi/index.js';
import { DEFAULT_FRESHNESS_POLICY, percentile } from '../pipeline/freshness/index.js';
import { americanToDecimal, deVigPower } from '../pipeline/odds-math/index.js';
import { wilsonInterval } from './beat-the-close.js';
import type { Phase } from './market-stats.js';

/**
 * What a recorded price that has gone unconfirmed for k times its book's stale threshold turns
 * out to be (docs/opportunities.md, "How stale is very stale: measured on the recordings"). In
 * The Odds API recordings each book's market carries `last_update`, when the source last had it
 * from the book: a snapshot's time minus it is how long the price had gone unconfirmed. For each
 * such price the recording shows what the book did next: its next `last_update` of that market
 * either carries other prices (the book moved off the price it was showing) or the same ones
 * (it stood behind it), or the market never comes back (taken down, the game over).
 *
 * - **The threshold** of a book and phase is the freshness ledger's rule, max(floor, 2 × p95 of
 *   the confirmation ages counted once per confirmation) (`pipeline/freshness/`). A snapshot does
 *   not see every confirmation, only the age of the price at its moment, which counts each wait
 *   for as long as it lasts. For a book that confirms as a renewal process, the density of those
 *   ages is the share of confirmation intervals still running at that age over their mean, so the
 *   share of intervals longer than x is the age density at x over the density at 0
 *   (`countWeightedQuantile`, with the density estimated under the one thing renewal theory says
 *   of it, that it does not increase: Grenander's estimator). Each book gets its own from both
 *   recordings' ages (`bookLimits`), as the ledger keeps one per book; with fewer than
 *   `MIN_BOOK_AGES` (BetOnline, BetUS and LowVig in play, which price a few games' first
 *   minutes) it gets its phase's, read off every book's ages.
 * - **A spell** is one price of one book's market (one `last_update`), seen in one or more
 *   snapshots; it is counted once in each k bucket it was seen in (at its first sighting there),
 *   so a price the book sat on across five snapshots does not weigh five times.
 * - **The consensus** at a snapshot is, per outcome of a line (the moneyline; a spread by the
 *   home side's point; a total by its point), the median over the other books whose price of
 *   that line is fresh (under its threshold; in play, also confirmed in play) of their power
 *   no-vig probabilities, when at least `MIN_CONSENSUS_BOOKS` price it: the market without the
 *   book, as a bettor comparing books sees it. In play the recordings have no sharp book
 *   (docs/simulator.md, "No sharp line in play in the recordings"), so the consensus is the
 *   only reference there is; before the game it stands in for the one sharp book, LowVig.
 * - **A +EV price** is an outcome whose price beats that consensus (EV = p × d − 1 ≥ 0, the
 *   default list's `min_ev`); `EV_MIN_PERCENT` and up is counted apart.
 *
 * In play only prices the book set or confirmed after the start count: the three books without
 * live odds leave their closing listing standing for up to 16 minutes after the start, which is
 * counted apart (`standing`). Pure: fed snapshots in order, asked for the table at the end.
 */

/** Buckets of k = age / threshold, each [low, high). */
export const K_BUCKETS: readonly { label: string; low: number; high: number }[] = [
  { label: 'under 1', low: 0, high: 1 },
  { label: '1-2', low: 1, high: 2 },
  { label: '2-3', low: 2, high: 3 },
  { label: '3-5', low: 3, high: 5 },
  { label: '5+', low: 5, high: Number.POSITIVE_INFINITY },
];

/** Other books with a fresh price of a line that make a consensus. */
export const MIN_CONSENSUS_BOOKS = 2;
/** An edge worth a bettor's attention, as `make calibrate` counts +EV rows (min_ev 2). */
export const EV_MIN_PERCENT = 2;

const MARKETS: ReadonlySet<string> = new Set(['h2h', 'spreads', 'totals']);

/** One book's market of one event in one snapshot. */
export interface MarketSighting {
  /** Event, book and market. */
  key: string;
  book: string;
  market: string;
  phase: Phase;
  /** The snapshot's time and the market's `last_update`, epoch ms. */
  at: number;
  ts: number;
  /** Listed in play without a price set or confirmed since the start: a closing line left standing. */
  standing: boolean;
  /** Outcome names and points with their American prices, as listed (the spell's identity). */
  prices: string;
  /** Each outcome's American price by `name@point`: what "the same outcome at the same line" is. */
  priceByOutcome: ReadonlyMap<string, number>;
  /** The line (`h2h`, a spread's home point, a total's point) and its outcomes in a fixed order (home, away, draw; over, under), or null when the listing is not a complete line. */
  line: string | null;
  /** The outcomes (`name@point`) and their decimal prices in that order. */
  order: string[] | null;
  decimals: number[] | null;
  /** Power no-vig probabilities in that order. */
  fair: number[] | null;
}

/** What the book did next with a price it had left unconfirmed. */
export type NextUpdate = 'changed' | 'unchanged' | 'gone';

/** One spell seen in one k bucket: at its first sighting there. */
export interface SpellObservation {
  phase: Phase;
  /** Event, book and market. */
  key: string;
  book: string;
  market: string;
  bucket: string;
  /** The snapshot the spell was seen at in this bucket (its first there), epoch ms. */
  at: number;
  ageMs: number;
  k: number;
  next: NextUpdate;
  /** From the sighting to the book's next `last_update` of the market, ms; null when gone. */
  nextAfterMs: number | null;
  /** Per outcome: EV % against the consensus at the sighting (null: no consensus). */
  evPercent: (number | null)[];
  /** Per outcome with EV ≥ `EV_MIN_PERCENT`: whether the book's next price of that outcome at that line is shorter (true), not shorter (false), or absent (null: gone, or another line). */
  edgeCut: (boolean | null)[];
  /** How far the book's first outcome sits from the consensus, points of probability (null: no consensus). */
  offConsensusPoints: number | null;
  /** When changed at the same line: whether the first outcome moved toward the consensus of the sighting (null otherwise). */
  towardConsensus: boolean | null;
}

export interface BucketSummary {
  phase: Phase;
  bucket: string;
  spells: number;
  changed: number;
  unchanged: number;
  gone: number;
  /** changed / (changed + unchanged), with its 95 % Wilson interval: of the prices the book came back to, the share it moved. */
  changedShare: number | null;
  changedLow: number | null;
  changedHigh: number | null;
  goneShare: number | null;
  /** Median time from the sighting to the next update, s. */
  nextAfterP50: number | null;
  /** Outcomes priced against a consensus; of them +EV (≥ 0) and ≥ `EV_MIN_PERCENT`. */
  priced: number;
  ev: number;
  ev2: number;
  /** ev / priced with its interval: how often a price this stale is a +EV row. */
  evShare: number | null;
  evLow: number | null;
  evHigh: number | null;
  /** EV ≥ 2 outcomes the book came back to at the same line, and how many of them it shortened. */
  edgesSeen: number;
  edgesCut: number;
  /** Median distance from the consensus, points. */
  offConsensusP50: number | null;
  /** Changed at the same line, and of them moved toward the sighting's consensus. */
  moves: number;
  toward: number;
}

/** Each price's stale threshold, s: one per phase, or per book and phase. */
export type StaleLimits = Readonly<Record<Phase, number>> | ((book: string, phase: Phase) => number);

/** A book's own threshold needs this many ages in the phase; with fewer it gets its phase's. */
export const MIN_BOOK_AGES = 200;

/** The phase's threshold, s, and what it is read from. */
export interface PhaseThreshold {
  phase: Phase;
  ages: number;
  /** Ages at the snapshots (each wait weighted by how long it lasted), s. */
  timeWeightedP50: number;
  timeWeightedP95: number;
  /** The same ages read once per confirmation (`countWeightedQuantile`), s. */
  countWeightedP50: number;
  countWeightedP95: number;
  /** max(floor, factor × count-weighted p95), as the ledger sets it. */
  staleAfterSeconds: number;
}

/** Width of the steps the age distribution is read in, ms: the ages are whole seconds, and a finer step lets a few ages near 0 pass for the density there. */
export const AGE_STEP_MS = 10_000;

/**
 * The `q` quantile of the intervals of a renewal process, read off its ages at random moments
 * (ascending, ms): the age density is the share of intervals still running at that age over
 * their mean, so the share of intervals longer than x is g(x) / g(0). g is estimated as the
 * slope of the least concave majorant of the ages' empirical distribution taken at steps of
 * `stepMs` (Grenander's estimator on a grid: the non-increasing density closest to the ages; the
 * grid keeps a handful of ages near 0 from reading as a spike of density there), and the quantile
 * is the first step at which g has fallen to 1 − q of g(0). Null for no ages.
 */
export function countWeightedQuantile(sorted: readonly number[], q: number, stepMs = AGE_STEP_MS): number | null {
  if (sorted.length === 0) return null;
  const n = sorted.length;
  const last = Math.max(0, sorted[n - 1] as number);
  // The empirical distribution at each step: the share of ages below it (the last step holds every age).
  const xs: number[] = [0];
  const ys: number[] = [0];
  let i = 0;
  for (let x = stepMs; ; x += stepMs) {
    while (i < n && (sorted[i] as number) < x) i++;
    // The least concave majorant: a corner below the chord from the one before to this one goes.
    while (xs.length >= 2) {
      const a = xs.length - 2;
      const b = xs.length - 1;
      const slopeAB = ((ys[b] as number) - (ys[a] as number)) / ((xs[b] as number) - (xs[a] as number));
      const slopeBC = (i / n - (ys[b] as number)) / (x - (xs[b] as number));
      if (slopeAB > slopeBC) break;
      xs.pop();
      ys.pop();
    }
    xs.push(x);
    ys.push(i / n);
    if (x > last) break;
  }
  const slope = (j: number): number => ((ys[j + 1] as number) - (ys[j] as number)) / ((xs[j + 1] as number) - (xs[j] as number));
  const g0 = slope(0);
  for (let j = 0; j < xs.length - 1; j++) if (slope(j) <= (1 - q) * g0 * (1 + 1e-9)) return xs[j] as number;
  return xs[xs.length - 1] as number;
}

/** A phase's threshold from its ages (ms), by the ledger's rule. */
export function phaseThreshold(phase: Phase, agesMs: readonly number[]): PhaseThreshold {
  const sorted = [...agesMs].sort((a, b) => a - b);
  const s = (ms: number | null): number => Math.round(ms ?? 0) / 1000;
  const p95 = s(countWeightedQuantile(sorted, 0.95));
  const { factor, floorSeconds } = DEFAULT_FRESHNESS_POLICY;
  return {
    phase,
    ages: sorted.length,
    timeWeightedP50: s(percentile(sorted, 0.5)),
    timeWeightedP95: s(percentile(sorted, 0.95)),
    countWeightedP50: s(countWeightedQuantile(sorted, 0.5)),
    countWeightedP95: p95,
    staleAfterSeconds: Math.max(floorSeconds[phase], Math.round(p95 * factor * 10) / 10),
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A listing's line in a fixed outcome order, or null when it is not one complete line. */
function lineOf(
  market: string,
  home: string,
  away: string,
  outcomes: readonly { name: string; point: number | null; price: number }[],
): { line: string; order: number[] } | null {
  const find = (name: string): number => outcomes.findIndex((o) => o.name === name);
  const names = market === 'totals' ? ['Over', 'Under'] : outcomes.length === 3 ? [home, away, 'Draw'] : [home, away];
  if (outcomes.length !== names.length) return null;
  const order = names.map(find);
  if (order.some((i) => i < 0)) return null;
  const first = outcomes[order[0] as number];
  const second = outcomes[order[1] as number];
  if (first === undefined || second === undefined) return null;
  if (market === 'h2h') return first.point === null ? { line: 'h2h', order } : null;
  if (first.point === null || second.point === null) return null;
  if (market === 'spreads' && first.point !== -second.point) return null;
  if (market === 'totals' && first.point !== second.point) return null;
  return { line: `${market} ${first.point}`, order };
}

const outcomeKey = (o: { name: string; point: number | null }): string => `${o.name}@${o.point ?? ''}`;

/** Every compared market of every book of a snapshot. */
export function sightingsOf(snapshot: RecordedSnapshot): MarketSighting[] {
  const out: MarketSighting[] = [];
  const at = snapshot.timestamp;
  for (const event of snapshot.data) {
    if (!isRecord(event)) continue;
    const start = Date.parse(String(event['commence_time']));
    const home = String(event['home_team']);
    const away = String(event['away_team']);
    const books = event['bookmakers'];
    if (Number.isNaN(start) || !Array.isArray(books)) continue;
    const phase: Phase = start <= at ? 'live' : 'prematch';
    for (const book of books) {
      if (!isRecord(book) || !Array.isArray(book['markets'])) continue;
      for (const m of book['markets']) {
        if (!isRecord(m) || !MARKETS.has(String(m['key'])) || !Array.isArray(m['outcomes'])) continue;
        const ts = Date.parse(String(m['last_update'] ?? book['last_update']));
        if (Number.isNaN(ts)) continue;
        const outcomes = m['outcomes'].filter(isRecord).map((o) => ({
          name: String(o['name']),
          point: typeof o['point'] === 'number' ? o['point'] : null,
          price: Number(o['price']),
        }));
        if (outcomes.some((o) => !Number.isFinite(o.price) || Math.abs(o.price) < 100)) continue;
        const market = String(m['key']);
        const line = lineOf(market, home, away, outcomes);
        const ordered = line === null ? null : line.order.map((i) => outcomes[i] as { name: string; point: number | null; price: number });
        const decimals = ordered === null ? null : ordered.map((o) => americanToDecimal(o.price));
        out.push({
          key: `${String(event['id'])}|${String(book['key'])}|${market}`,
          book: String(book['key']),
          market,
          phase,
          at,
          ts,
          standing: phase === 'live' && ts < start,
          prices: outcomes
            .map((o) => `${outcomeKey(o)}:${o.price}`)
            .sort()
            .join(','),
          priceByOutcome: new Map(outcomes.map((o) => [outcomeKey(o), o.price])),
          line: line === null ? null : `${String(event['id'])}|${line.line}`,
          order: ordered === null ? null : ordered.map(outcomeKey),
          decimals,
          fair: decimals === null ? null : deVigPower(decimals),
        });
      }
    }
  }
  return out;
}

const median = (xs: number[]): number | null => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

export class StaleOutcomes {
  /** Every snapshot's sightings, in order. */
  private readonly snapshots: MarketSighting[][] = [];

  add(snapshot: RecordedSnapshot): void {
    this.snapshots.push(sightingsOf(snapshot));
  }

  /** The confirmation ages of a phase, ms (of one book when given): in play only prices confirmed in play. */
  agesMs(phase: Phase, book?: string): number[] {
    return this.snapshots.flatMap((list) =>
      list.filter((s) => s.phase === phase && !s.standing && (book === undefined || s.book === book)).map((s) => Math.max(0, s.at - s.ts)),
    );
  }

  /** The books seen, in order of their keys. */
  get books(): string[] {
    return [...new Set(this.snapshots.flatMap((list) => list.map((s) => s.book)))].sort();
  }

  thresholds(
    ages: Record<Phase, readonly number[]> = { prematch: this.agesMs('prematch'), live: this.agesMs('live') },
  ): Record<Phase, PhaseThreshold> {
    return { prematch: phaseThreshold('prematch', ages.prematch), live: phaseThreshold('live', ages.live) };
  }

  /**
   * Every spell in every k bucket it was seen in, against the given thresholds (s), and the
   * closing listings left standing in play apart.
   */
  observations(limits: StaleLimits): { spells: SpellObservation[]; standing: SpellObservation[] } {
    const thresholds = typeof limits === 'function' ? limits : (_book: string, phase: Phase): number => limits[phase];
    const spells: SpellObservation[] = [];
    const standing: SpellObservation[] = [];
    const consensus = this.consensus(thresholds);
    // Each market's sightings in order, cut into spells (one `last_update`, one set of prices).
    const byKey = new Map<string, MarketSighting[]>();
    for (const list of this.snapshots) {
      for (const s of list) {
        const seen = byKey.get(s.key);
        if (seen === undefined) byKey.set(s.key, [s]);
        else if (s.ts >= (seen[seen.length - 1] as MarketSighting).ts) seen.push(s);
        // A `last_update` that went back is the source's, not the book's: skipped.
      }
    }
    for (const list of byKey.values()) {
      let i = 0;
      while (i < list.length) {
        const first = list[i] as MarketSighting;
        let j = i + 1;
        while (j < list.length && (list[j] as MarketSighting).ts === first.ts && (list[j] as MarketSighting).prices === first.prices) j++;
        const next = list[j];
        const seenIn = new Set<string>();
        for (let m = i; m < j; m++) {
          const s = list[m] as MarketSighting;
          const ageMs = Math.max(0, s.at - s.ts);
          const k = ageMs / 1000 / thresholds(s.book, s.phase);
          const bucket = K_BUCKETS.find((b) => k >= b.low && k < b.high)?.label ?? '5+';
          const tag = `${s.phase}|${bucket}|${s.standing}`;
          if (seenIn.has(tag)) continue;
          seenIn.add(tag);
          const obs = this.observe(s, next, ageMs, k, bucket, consensus.get(s));
          (s.standing ? standing : spells).push(obs);
        }
        i = j;
      }
    }
    return { spells, standing };
  }

  private observe(
    s: MarketSighting,
    next: MarketSighting | undefined,
    ageMs: number,
    k: number,
    bucket: string,
    cons: number[] | undefined,
  ): SpellObservation {
    const outcome: NextUpdate = next === undefined ? 'gone' : next.prices === s.prices ? 'unchanged' : 'changed';
    const evPercent = (s.decimals ?? []).map((d, i) => (cons === undefined ? null : ((cons[i] as number) * d - 1) * 100));
    const edgeCut = evPercent.map((ev, i) => {
      if (ev === null || ev < EV_MIN_PERCENT) return null;
      const name = s.order?.[i];
      const after = name === undefined ? undefined : next?.priceByOutcome.get(name);
      const before = name === undefined ? undefined : s.priceByOutcome.get(name);
      if (after === undefined || before === undefined) return null;
      return americanToDecimal(after) < americanToDecimal(before);
    });
    const off = cons === undefined || s.fair === null ? null : Math.abs((s.fair[0] as number) - (cons[0] as number)) * 100;
    let towardConsensus: boolean | null = null;
    if (
      outcome === 'changed' &&
      next !== undefined &&
      cons !== undefined &&
      s.fair !== null &&
      next.line === s.line &&
      next.fair !== null
    ) {
      const gap = (cons[0] as number) - (s.fair[0] as number);
      const moved = (next.fair[0] as number) - (s.fair[0] as number);
      if (gap !== 0 && moved !== 0) towardConsensus = gap * moved > 0;
    }
    return {
      phase: s.phase,
      key: s.key,
      book: s.book,
      market: s.market,
      bucket,
      at: s.at,
      ageMs,
      k,
      next: outcome,
      nextAfterMs: next === undefined ? null : next.ts - s.at,
      evPercent,
      edgeCut,
      offConsensusPoints: off,
      towardConsensus,
    };
  }

  /** Per sighting, the consensus of the other books' fresh prices of its line (absent when too few). */
  private consensus(thresholds: (book: string, phase: Phase) => number): Map<MarketSighting, number[]> {
    const out = new Map<MarketSighting, number[]>();
    for (const list of this.snapshots) {
      const byLine = new Map<string, MarketSighting[]>();
      for (const s of list) {
        if (s.line === null || s.fair === null) continue;
        const group = byLine.get(s.line);
        if (group === undefined) byLine.set(s.line, [s]);
        else group.push(s);
      }
      for (const group of byLine.values()) {
        const fresh = group.filter((s) => !s.standing && s.at - s.ts <= thresholds(s.book, s.phase) * 1000);
        for (const s of group) {
          const others = fresh.filter((o) => o.book !== s.book);
          if (others.length < MIN_CONSENSUS_BOOKS) continue;
          const width = s.fair?.length ?? 0;
          const cons: number[] = [];
          for (let i = 0; i < width; i++) cons.push(median(others.map((o) => (o.fair as number[])[i] as number)) as number);
          out.set(s, cons);
        }
      }
    }
    return out;
  }
}

/**
 * Each book's threshold per phase over the given recordings together, as the ledger keeps one per
 * book; its phase's (every book's ages) when it has fewer than `MIN_BOOK_AGES` there.
 */
export function bookLimits(runs: readonly StaleOutcomes[]): {
  limits: (book: string, phase: Phase) => number;
  table: PhaseThreshold[][];
  books: string[];
  phases: Record<Phase, PhaseThreshold>;
} {
  const ages = (phase: Phase, book?: string): number[] => runs.flatMap((r) => r.agesMs(phase, book));
  const phases = { prematch: phaseThreshold('prematch', ages('prematch')), live: phaseThreshold('live', ages('live')) };
  const books = [...new Set(runs.flatMap((r) => r.books))].sort();
  const own = new Map<string, number>();
  const table: PhaseThreshold[][] = [];
  for (const book of books) {
    const row: PhaseThreshold[] = [];
    for (const phase of ['prematch', 'live'] as const) {
      const t = phaseThreshold(phase, ages(phase, book));
      row.push(t);
      if (t.ages >= MIN_BOOK_AGES) own.set(`${book}|${phase}`, t.staleAfterSeconds);
    }
    table.push(row);
  }
  return { limits: (book, phase) => own.get(`${book}|${phase}`) ?? phases[phase].staleAfterSeconds, table, books, phases };
}

/** The table: per phase and k bucket. */
export function summarize(observations: readonly SpellObservation[]): BucketSummary[] {
  const rows: BucketSummary[] = [];
  for (const phase of ['prematch', 'live'] as const) {
    for (const b of K_BUCKETS) {
      const list = observations.filter((o) => o.phase === phase && o.bucket === b.label);
      rows.push(summaryOf(phase, b.label, list));
    }
  }
  return rows;
}

export function summaryOf(phase: Phase, bucket: string, list: readonly SpellObservation[]): BucketSummary {
  const changed = list.filter((o) => o.next === 'changed').length;
  const unchanged = list.filter((o) => o.next === 'unchanged').length;
  const gone = list.length - changed - unchanged;
  const back = changed + unchanged;
  const [cLow, cHigh] = wilsonInterval(changed, back);
  const evs = list.flatMap((o) => o.evPercent.filter((e): e is number => e !== null));
  const ev = evs.filter((e) => e >= 0).length;
  const [eLow, eHigh] = wilsonInterval(ev, evs.length);
  const cuts = list.flatMap((o) => o.edgeCut.filter((c): c is boolean => c !== null));
  const offs = list.flatMap((o) => (o.offConsensusPoints === null ? [] : [o.offConsensusPoints]));
  const moves = list.flatMap((o) => (o.towardConsensus === null ? [] : [o.towardConsensus]));
  const after = list.flatMap((o) => (o.nextAfterMs === null ? [] : [o.nextAfterMs / 1000]));
  const share = (x: number, n: number): number | null => (n === 0 ? null : x / n);
  return {
    phase,
    bucket,
    spells: list.length,
    changed,
    unchanged,
    gone,
    changedShare: share(changed, back),
    changedLow: back === 0 ? null : cLow,
    changedHigh: back === 0 ? null : cHigh,
    goneShare: share(gone, list.length),
    nextAfterP50: median(after),
    priced: evs.length,
    ev,
    ev2: evs.filter((e) => e >= EV_MIN_PERCENT).length,
    evShare: share(ev, evs.length),
    evLow: evs.length === 0 ? null : eLow,
    evHigh: evs.length === 0 ? null : eHigh,
    edgesSeen: cuts.length,
    edgesCut: cuts.filter((c) => c).length,
    offConsensusP50: median(offs),
    moves: moves.length,
    toward: moves.filter((t) => t).length,
  };
}
