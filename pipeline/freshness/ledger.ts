import type { OddsRow } from '../../schemas/index.js';

/**
 * How fresh each book keeps its prices, measured from the changes it sends: per book and phase
 * (live or pre-match), over a rolling window,
 *
 * - confirmation age: how long a row had gone without a word from the book when the book next
 *   set or confirmed it (the step of `ts` between two sightings of the row);
 * - feed lag: on a moved price, how long after the book moved it our feed saw it
 *   (`observedAt - oddsChangedAt`);
 * - update rate: sightings per minute; suspended share: rows of the book locked right now.
 *
 * The stale threshold of a book is read from its confirmation ages: a price is stale when it has
 * gone unconfirmed longer than this book normally takes (docs/opportunities.md). Every threshold
 * is a function of the sequence of rows observed, nothing else: it is recomputed only when the
 * observed time enters a new step of `recomputeMs` (`enterStep`), never when asked, so a ledger
 * fed the same rows in one batch or in many, asked at any moment, holds the same thresholds (a
 * restarted or rebalanced processor replaying its partition's changelog agrees with one that ran
 * through).
 */

export type Phase = 'live' | 'prematch';

export interface FreshnessPolicy {
  /** How far back the distributions reach, ms. */
  windowMs: number;
  /** Samples kept per book, phase and measure (the newest); bounds memory and the cost of a summary. */
  maxSamples: number;
  /** The threshold is this multiple of the p95 confirmation age... */
  factor: number;
  /** ...and never below this, seconds (live, pre-match): the fixed rule this replaces. */
  floorSeconds: Readonly<Record<Phase, number>>;
  /** Until a book has this many confirmation ages in the window, its threshold is the floor. */
  minSamples: number;
  /**
   * The step, ms of observed time, at which thresholds are recomputed: when a sighting's time
   * enters a new step, every book and phase with at least `minSamples` confirmation ages new
   * since its last computation is recomputed from the rows observed before (the running waits
   * grow with time, and a processor that sees a quarter of the board gets a quarter of the ages,
   * so a count of new ages alone moved thresholds late). Steps are multiples of `recomputeMs`
   * from the epoch, so they fall at the same rows whatever the batches.
   */
  recomputeMs: number;
}

export const DEFAULT_FRESHNESS_POLICY: FreshnessPolicy = {
  windowMs: 15 * 60_000,
  maxSamples: 4096,
  factor: 2,
  floorSeconds: { live: 10, prematch: 60 },
  minSamples: 30,
  recomputeMs: 10_000,
};

export interface Distribution {
  count: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
}

export interface PhaseFreshness {
  /** Confirmation ages in the window, seconds. */
  confirmationAgeSeconds: Distribution;
  /** Feed lag of moved prices in the window, seconds. */
  feedLagSeconds: Distribution;
  /** Sightings (sets and confirmations) per minute over the window. */
  updatesPerMinute: number;
  /** Rows of the book in this phase on the board now, and the share of them suspended. */
  rows: number;
  suspendedShare: number;
  /** The stale threshold this book gets in this phase now, seconds. */
  staleAfterSeconds: number;
}

export interface BookFreshness {
  book: string;
  live: PhaseFreshness;
  prematch: PhaseFreshness;
}

export interface FreshnessReport {
  /** The window the figures cover, epoch ms. */
  from: number;
  to: number;
  books: BookFreshness[];
}

/**
 * The newest `max` samples with the time each was taken, in a ring. It starts small and doubles
 * up to `max`, then overwrites the oldest: a busy book holds exactly what its percentiles read
 * (arrays that grew to twice `max` before trimming held twice that, and kept growing for as long
 * again after the window filled), a quiet one little.
 */
class Samples {
  private times = new Float64Array(0);
  private values = new Float64Array(0);
  /** Where the next sample goes. */
  private next = 0;
  private count = 0;

  constructor(private readonly max: number) {}

  /** Samples held (at most `max`). */
  get size(): number {
    return this.count;
  }

  add(at: number, value: number): void {
    if (this.next === this.times.length) {
      if (this.times.length < this.max) this.grow();
      else this.next = 0;
    }
    this.times[this.next] = at;
    this.values[this.next] = value;
    this.next++;
    if (this.count < this.max) this.count++;
  }

  /**
   * The values taken at or after `from`, ascending. A typed array sorts numerically in native code
   * without a comparator: each step of the thresholds sorts up to `max` ages of every busy book.
   */
  sortedSince(from: number): Float64Array {
    const out = new Float64Array(this.count);
    let n = 0;
    for (let i = 0; i < this.count; i++) if ((this.times[i] ?? -Infinity) >= from) out[n++] = this.values[i] ?? 0;
    return out.subarray(0, n).sort();
  }

  /** Until the ring is full, samples sit in arrival order from 0, so growing copies them as they are. */
  private grow(): void {
    const capacity = Math.min(this.max, Math.max(64, this.times.length * 2));
    const times = new Float64Array(capacity);
    const values = new Float64Array(capacity);
    times.set(this.times);
    values.set(this.values);
    this.times = times;
    this.values = values;
  }
}

/**
 * Counts per whole second of the window, in a ring of one slot per second (allocated at the
 * first sighting): an update rate costs no sample per sighting, and the memory is the same from
 * the first minute on. A map of seconds trimmed only past twice the window kept filling for 30
 * minutes at the default window, a slope no short soak could tell from a leak.
 */
class SecondCounts {
  /** The second each slot counts (NaN: none yet), and its count. */
  private seconds = new Float64Array(0);
  private counts = new Uint32Array(0);

  constructor(private readonly windowMs: number) {}

  add(at: number): void {
    if (this.seconds.length === 0) {
      // The window's seconds and the one it starts in: a window from a second's middle reads both ends.
      const slots = Math.ceil(this.windowMs / 1000) + 1;
      this.seconds = new Float64Array(slots).fill(Number.NaN);
      this.counts = new Uint32Array(slots);
    }
    const second = Math.floor(at / 1000);
    const slot = ((second % this.seconds.length) + this.seconds.length) % this.seconds.length;
    const held = this.seconds[slot] as number;
    // A slot holding a later second means this one has left the window already.
    if (held > second) return;
    if (held !== second) {
      this.seconds[slot] = second;
      this.counts[slot] = 0;
    }
    this.counts[slot] = (this.counts[slot] as number) + 1;
  }

  countSince(from: number): number {
    let n = 0;
    for (let i = 0; i < this.seconds.length; i++) if ((this.seconds[i] as number) * 1000 >= from) n += this.counts[i] as number;
    return n;
  }

  /** Seconds with a count held. */
  get size(): number {
    return this.seconds.reduce((n, s) => (Number.isNaN(s) ? n : n + 1), 0);
  }
}

/**
 * The `q` quantile of durations of which some are only known to be at least so long (right
 * censored: still running), by the Kaplan-Meier estimate of the share still running after each
 * ended duration. `ended` and `running` ascending. With nothing running it is the nearest-rank
 * percentile of `ended`. When more than `1 - q` of the estimate is still running past the
 * longest ended duration, the quantile lies beyond it: if at least `minTail` durations are still
 * running there, the longest of them is returned (a lower bound); with fewer, the longest ended
 * duration, since a handful of rows cannot tell a slow book from a few prices it sits on.
 * Null when `ended` is empty.
 */
export function censoredPercentile(ended: ArrayLike<number>, running: ArrayLike<number>, q: number, minTail = 1): number | null {
  if (ended.length === 0) return null;
  let atRisk = ended.length + running.length;
  let survival = 1;
  let i = 0;
  let j = 0;
  while (i < ended.length) {
    const t = ended[i] as number;
    // Running durations shorter than t left the risk set before t; those equal to t are at risk at t.
    while (j < running.length && (running[j] as number) < t) {
      j++;
      atRisk--;
    }
    let d = 0;
    while (i < ended.length && ended[i] === t) {
      i++;
      d++;
    }
    survival *= 1 - d / atRisk;
    // The small tolerance keeps the nearest-rank answer where the product's rounding lands a hair above 1 - q.
    if (survival <= 1 - q + 1e-12) return t;
    atRisk -= d;
  }
  const longestEnded = ended[ended.length - 1] as number;
  const tail = running.length - j;
  return tail >= minTail ? Math.max(longestEnded, running[running.length - 1] as number) : longestEnded;
}

/** Nearest-rank percentile of an ascending list. */
export function percentile(sorted: ArrayLike<number>, q: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1] ?? null;
}

function distribution(sortedMs: ArrayLike<number>): Distribution {
  const s = (q: number): number | null => {
    const v = percentile(sortedMs, q);
    return v === null ? null : Math.round(v) / 1000;
  };
  return { count: sortedMs.length, p50: s(0.5), p95: s(0.95), p99: s(0.99) };
}

interface PhaseState {
  confirmations: Samples;
  lags: Samples;
  /** Sightings per second, for the update rate. */
  sightings: SecondCounts;
  rows: number;
  suspended: number;
  /**
   * Rows of the book on the board not confirmed since the ledger first saw them, by row id: the
   * time of that sighting. Each is a confirmation age still running, at least as long as it has
   * been so far (staleAfterSeconds). A row leaves once confirmed, suspended, removed or gone to
   * the other phase, so after the first minutes only rows listed since remain.
   */
  unconfirmed: Map<string, number>;
  /** The threshold since the last step that recomputed it (null: never, the floor). */
  threshold: number | null;
  /** Confirmation ages taken in since that computation. */
  sinceThreshold: number;
}

/** The sample a change yields: what one test recomputes from the ticks without this class. */
export interface Sighting {
  book: string;
  phase: Phase;
  at: number;
  /** Null for a first sighting, a suspension or a time that did not move on. */
  confirmationAgeMs: number | null;
  /** Null unless the price moved. */
  feedLagMs: number | null;
}

export const phaseOf = (isLive: boolean): Phase => (isLive ? 'live' : 'prematch');

/**
 * What one change of a row says about its book: `previous` is the row before (undefined for a
 * new row), `row` after (null: removed). A suspension or removal says nothing about cadence; a
 * price seen again at a later `ts` gives a confirmation age; a moved price gives a feed lag.
 */
export function sightingOf(previous: OddsRow | undefined, row: OddsRow | null): Sighting | null {
  if (row === null || !row.isActive) return null;
  const moved = previous === undefined || previous.priceAmerican !== row.priceAmerican || previous.oddsChangedAt !== row.oddsChangedAt;
  const confirmationAgeMs = previous !== undefined && previous.isActive && row.ts > previous.ts ? row.ts - previous.ts : null;
  return {
    book: row.book,
    phase: phaseOf(row.isLive),
    at: row.observedAt,
    confirmationAgeMs,
    feedLagMs: moved ? Math.max(0, row.observedAt - row.oddsChangedAt) : null,
  };
}

export class FreshnessLedger {
  private readonly books = new Map<string, Record<Phase, PhaseState>>();
  /** Newest time seen: the end of the window when none is given. */
  private latest = -Infinity;
  /** The step the newest time is in (`recomputeMs` steps from the epoch). */
  private step = -Infinity;

  private readonly listeners: ((s: Sighting) => void)[] = [];
  /** Recomputed thresholds that came out above / below the one callers had been given. */
  private risen = 0;
  private fallen = 0;

  constructor(readonly policy: FreshnessPolicy = DEFAULT_FRESHNESS_POLICY) {}

  /** Calls `listener` with every sighting taken in (the Prometheus histograms follow the ledger so). */
  onSighting(listener: (s: Sighting) => void): void {
    this.listeners.push(listener);
  }

  /**
   * The start of the step this change's time enters, if it enters one the ledger is not in yet
   * (null otherwise): `observe` recomputes the thresholds there first. A caller that builds on
   * the thresholds asks before observing, builds what it holds on the old ones, then calls
   * `enterStep` (the opportunity processor, so its records agree with a one-at-a-time run).
   */
  stepStartOf(row: OddsRow | null): number | null {
    if (row === null || !row.isActive) return null;
    const step = Math.floor(row.observedAt / this.policy.recomputeMs);
    return step > this.step ? step * this.policy.recomputeMs : null;
  }

  /**
   * Enters the step starting at `start` (from `stepStartOf`): every book and phase with at least
   * `minSamples` new confirmation ages since its last computation gets its threshold recomputed
   * over the window ending at `start`, from what was observed before. A book with fewer keeps
   * its threshold: a sparse book's few new ages would move it on noise at every step.
   */
  enterStep(start: number): void {
    const step = Math.floor(start / this.policy.recomputeMs);
    if (step <= this.step) return;
    this.step = step;
    for (const book of [...this.books.keys()].sort()) {
      const phases = this.books.get(book) as Record<Phase, PhaseState>;
      for (const phase of ['live', 'prematch'] as const) {
        if (phases[phase].sinceThreshold >= this.policy.minSamples) this.recompute(phases[phase], phase, start);
      }
    }
  }

  /** Takes in one change of a row (see `sightingOf`) and keeps the book's row counts. */
  observe(previous: OddsRow | undefined, row: OddsRow | null): void {
    const start = this.stepStartOf(row);
    if (start !== null) this.enterStep(start);
    if (previous !== undefined) this.count(previous, -1);
    if (row !== null) this.count(row, 1);
    this.followUnconfirmed(previous, row);
    const s = sightingOf(previous, row);
    if (s === null) return;
    for (const l of this.listeners) l(s);
    const st = this.phase(s.book, s.phase);
    if (s.at > this.latest) this.latest = s.at;
    st.sightings.add(s.at);
    if (s.feedLagMs !== null) st.lags.add(s.at, s.feedLagMs);
    if (s.confirmationAgeMs !== null) {
      st.confirmations.add(s.at, s.confirmationAgeMs);
      st.sinceThreshold++;
    }
  }

  /**
   * Seconds a price of this book may go unconfirmed before it is stale: the threshold of the
   * last step that recomputed it (`enterStep`), the floor before. Only reads: asking changes nothing.
   */
  staleAfterSeconds(book: string, isLive: boolean): number {
    const phase = phaseOf(isLive);
    return this.books.get(book)?.[phase].threshold ?? this.policy.floorSeconds[phase];
  }

  /**
   * max(floor, p95 × factor) at `end`, the p95 over the confirmation ages of the window and, as
   * ages still running, the rows not confirmed since first seen (`censoredPercentile`): a young
   * ledger has seen only ages shorter than itself, and would otherwise read a slow book's cadence
   * as its own age. The floor until the window holds `minSamples` ages.
   */
  private recompute(st: PhaseState, phase: Phase, end: number): void {
    const floor = this.policy.floorSeconds[phase];
    const { minSamples } = this.policy;
    const ages = st.confirmations.sortedSince(end - this.policy.windowMs);
    const p95 = ages.length >= minSamples ? censoredPercentile(ages, this.runningAges(st, end), 0.95, minSamples) : null;
    const next = p95 === null ? floor : Math.max(floor, Math.round((p95 * this.policy.factor) / 100) / 10);
    // Before its first computation a book was given the floor.
    const before = st.threshold ?? floor;
    if (next > before) this.risen++;
    else if (next < before) this.fallen++;
    st.threshold = next;
    st.sinceThreshold = 0;
  }

  /** The running ages at `end` of the rows not confirmed since first seen, ascending, each at most the window (a row left behind cannot count for more). */
  private runningAges(st: PhaseState, end: number): Float64Array {
    const out = new Float64Array(st.unconfirmed.size);
    let n = 0;
    for (const ts of st.unconfirmed.values()) {
      const age = Math.min(end - ts, this.policy.windowMs);
      if (age > 0) out[n++] = age;
    }
    return out.subarray(0, n).sort();
  }

  /** Keeps `unconfirmed`: a row enters at its first sighting and leaves at its first confirmation or when it stops counting. */
  private followUnconfirmed(previous: OddsRow | undefined, row: OddsRow | null): void {
    if (previous !== undefined) {
      const st = this.books.get(previous.book)?.[phaseOf(previous.isLive)];
      if (st?.unconfirmed.has(previous.id) && (row === null || !row.isActive || row.isLive !== previous.isLive || row.ts > previous.ts)) {
        st.unconfirmed.delete(previous.id);
      }
    } else if (row !== null && row.isActive) {
      this.phase(row.book, phaseOf(row.isLive)).unconfirmed.set(row.id, row.ts);
    }
  }

  /**
   * How many times a book's threshold has moved up (rises) and down (falls), any book and
   * phase: whoever judged prices against the thresholds before knows when to judge them again.
   * Thresholds move only when a step is entered (`enterStep`).
   */
  get thresholdRises(): number {
    return this.risen;
  }

  get thresholdFalls(): number {
    return this.fallen;
  }

  /** Every book's figures over the window ending at `now` (default: the newest sighting). */
  report(now: number = this.latest): FreshnessReport {
    const books: BookFreshness[] = [];
    for (const book of [...this.books.keys()].sort()) books.push(this.bookReport(book, now));
    return { from: now - this.policy.windowMs, to: now, books };
  }

  /** One book's figures over the window ending at `now` (empty, with the floors, for a book never seen). */
  bookReport(book: string, now: number = this.latest): BookFreshness {
    const phases = this.books.get(book) ?? this.emptyPhases();
    const from = now - this.policy.windowMs;
    const minutes = this.policy.windowMs / 60_000;
    const one = (phase: Phase): PhaseFreshness => {
      const st = phases[phase];
      return {
        confirmationAgeSeconds: distribution(st.confirmations.sortedSince(from)),
        feedLagSeconds: distribution(st.lags.sortedSince(from)),
        updatesPerMinute: Math.round((st.sightings.countSince(from) / minutes) * 100) / 100,
        rows: st.rows,
        suspendedShare: st.rows === 0 ? 0 : Math.round((st.suspended / st.rows) * 10_000) / 10_000,
        staleAfterSeconds: this.staleAfterSeconds(book, phase === 'live'),
      };
    };
    return { book, live: one('live'), prematch: one('prematch') };
  }

  /** Samples held, every book, phase and measure (tests: at most `maxSamples` each). */
  get samplesHeld(): number {
    let n = 0;
    for (const phases of this.books.values()) for (const st of [phases.live, phases.prematch]) n += st.confirmations.size + st.lags.size;
    return n;
  }

  /** Seconds of sightings held for the update rates, every book and phase (tests: at most the window's seconds and one each). */
  get secondsHeld(): number {
    let n = 0;
    for (const phases of this.books.values()) n += phases.live.sightings.size + phases.prematch.sightings.size;
    return n;
  }

  /** The end of the window when none is given: the newest sighting (null before any). */
  get newest(): number | null {
    return Number.isFinite(this.latest) ? this.latest : null;
  }

  private count(row: OddsRow, by: 1 | -1): void {
    const st = this.phase(row.book, phaseOf(row.isLive));
    st.rows += by;
    if (!row.isActive) st.suspended += by;
  }

  private phase(book: string, phase: Phase): PhaseState {
    let b = this.books.get(book);
    if (b === undefined) {
      b = this.emptyPhases();
      this.books.set(book, b);
    }
    return b[phase];
  }

  private emptyPhases(): Record<Phase, PhaseState> {
    const fresh = (): PhaseState => ({
      confirmations: new Samples(this.policy.maxSamples),
      lags: new Samples(this.policy.maxSamples),
      sightings: new SecondCounts(this.policy.windowMs),
      rows: 0,
      suspended: 0,
      unconfirmed: new Map(),
      threshold: null,
      sinceThreshold: 0,
    });
    return { live: fresh(), prematch: fresh() };
  }
}
