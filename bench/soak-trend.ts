/**
 * The soak's verdict (docs/soak.md), pure: a least-squares line through each memory series after
 * the warm-up, its slope as a share of the fitted level per hour, and a line through the open
 * descriptors, its slope in descriptors per hour.
 */

/** One 10-second reading of the server. */
export interface SoakSample {
  /** Seconds since the soak started. */
  t: number;
  rssBytes: number;
  heapUsedBytes: number;
  /** The heap in use just after the last major GC: the series the heap verdict is fitted to. */
  heapAfterGcBytes: number;
  /**
   * The heap in use just after a full collection the driver asked for (once a minute; absent or
   * NaN at the other readings). V8's own major GCs mark while the program runs and keep what it
   * allocated meanwhile, so `heapAfterGcBytes` moves with the allocation rate at that moment as
   * well as with what is live; this reading does not (docs/soak.md, round nine). Reported beside
   * the judged series until a quiet hour has compared the two.
   */
  heapForcedGcBytes?: number;
  externalBytes: number;
  /** Every open descriptor of the server. */
  fds: number;
  /**
   * Of those, the server's own per-thread /proc files (`/proc/<pid>/task/<tid>/stat`,
   * `schedstat`, `io`): the store's engine opens three for a thread the first time it runs a
   * query there and keeps them while the thread lives, so they fill up to three per thread as
   * its pool's threads get used, and are bounded by `threads`.
   */
  threadFds: number;
  /** The server's threads (`/proc/<pid>/status`). */
  threads: number;
  eventLoopP99Ms: number;
  /** Tick timestamp to a subscriber's arrival, p99 over the last 10 s (NaN when nothing arrived). */
  streamLagP99Ms: number;
  storeParts: number;
  /** Records produced but not yet committed, summed over the pipeline's stages. */
  pipelineLag: number;
  /**
   * The API's board (`odds_board_rows`, `odds_board_events`): what the memory serves. A heap
   * that grows with the board is the board growing, not a leak; read the two side by side.
   */
  boardRows: number;
  boardEvents: number;
  /** `odds_board_rows_taken_in`: rows the board took in under a new key since start, its first fill included. */
  boardRowsTakenIn: number;
}

/**
 * When the maps over the board's keys had reached their lasting size: the first reading at which
 * the board had taken in as many keys as the smallest power of two holding its rows (null: not
 * within the run).
 *
 * V8's `Map` keeps a deleted key's slot until the table is full, then rehashes: at the same
 * capacity when at least half the slots were deleted, at twice it otherwise. A map over a steady
 * set of n churning keys therefore fills a table of the power of two above n with live and
 * deleted keys, doubles once, and stays (measured, docs/soak.md round eleven: 46,000 keys in
 * 65,536 slots doubled after 19,536 new ones, then held flat to 108,000). The server keeps several
 * maps over every key of the board (the snapshot processor's rows, the row index, the change
 * logs' latest entries, streams held for every book), so each doubles at about this reading: a
 * step of a few MB that a line through the readings before and after would call growth.
 */
export function keyTablesSettledAt(samples: readonly SoakSample[]): number | null {
  let rows = 0;
  for (const s of samples) {
    rows = Math.max(rows, s.boardRows);
    if (rows > 0 && s.boardRowsTakenIn >= 2 ** Math.ceil(Math.log2(rows))) return s.t;
  }
  return null;
}

/**
 * Memory is judged from a minute after the key tables settled: the maps double at about that
 * reading, and the heap after major GC shows the step only after the next major collection.
 */
export const KEY_TABLE_MARGIN_SECONDS = 60;

/**
 * A run at least this long must judge memory. At the soak's defaults the key tables settle about
 * 22 minutes in (65,536 rows taken in by a board of 45,700 that takes in some 900 new keys a
 * minute), so a shorter run (CI's five minutes) reports memory without judging it.
 */
export const MEMORY_VERDICT_REQUIRED_SECONDS = 30 * 60;

/** Where memory is judged from: the later of the warm-up and the key tables' settling (null: they did not settle). */
export function memoryWarmupOf(samples: readonly SoakSample[], warmupSeconds: number): number | null {
  const settledAt = keyTablesSettledAt(samples);
  return settledAt === null ? null : Math.max(warmupSeconds, settledAt + KEY_TABLE_MARGIN_SECONDS);
}

export interface Line {
  slope: number;
  intercept: number;
  /** Standard error of the slope (NaN under three points). */
  slopeError: number;
}

/** Ordinary least squares of y on x. */
export function leastSquares(points: readonly (readonly [number, number])[]): Line {
  const n = points.length;
  if (n < 2) return { slope: 0, intercept: points[0]?.[1] ?? 0, slopeError: Number.NaN };
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const slope = sxx === 0 ? 0 : sxy / sxx;
  const intercept = my - slope * mx;
  const residuals = points.reduce((s, [x, y]) => s + (y - (intercept + slope * x)) ** 2, 0);
  const slopeError = n > 2 && sxx > 0 ? Math.sqrt(residuals / (n - 2) / sxx) : Number.NaN;
  return { slope, intercept, slopeError };
}

export interface Growth {
  /** Slope of the fitted line per hour, as a share of the line's value at the end of the warm-up. */
  perHour: number;
  /** Two standard errors of `perHour`: the band inside which noise alone would put it. */
  noise: number;
}

/** A series' fitted growth per hour after `fromT` (seconds), in its own unit, with two standard errors. */
export function slopePerHour(samples: readonly SoakSample[], pick: (s: SoakSample) => number, fromT: number): Growth {
  const line = leastSquares(samples.filter((s) => s.t >= fromT).map((s) => [s.t, pick(s)] as const));
  return { perHour: line.slope * 3600, noise: 2 * line.slopeError * 3600 };
}

/** A series' growth per hour after `fromT` (seconds), relative to where its line starts. */
export function growthPerHour(samples: readonly SoakSample[], pick: (s: SoakSample) => number, fromT: number): Growth {
  const line = leastSquares(samples.filter((s) => s.t >= fromT).map((s) => [s.t, pick(s)] as const));
  const level = line.intercept + line.slope * fromT;
  if (!(level > 0)) return { perHour: 0, noise: Number.NaN };
  return { perHour: (line.slope * 3600) / level, noise: (2 * line.slopeError * 3600) / level };
}

/**
 * A change between two readings larger than this is a step: the threads of a quiet run wobble
 * by one or two (160-162 over 34 minutes, round five) as short-lived threads come and go.
 */
export const THREAD_STEP = 2;

/**
 * Where a count is judged from: the reading after its last step (a change of more than
 * `THREAD_STEP` from the reading before), when at least half of the readings after the warm-up
 * (and at least four) follow it; otherwise the end of the warm-up. A step then flat is judged flat; a steady climb,
 * in small changes or in steps, either has no step or has its last one too late to leave half
 * the run, so it is judged whole and fails.
 */
export function afterLastStep(measured: readonly SoakSample[], pick: (s: SoakSample) => number, warmupSeconds: number): number {
  for (let i = measured.length - 1; i > 0; i--) {
    const step = Math.abs(pick(measured[i] as SoakSample) - pick(measured[i - 1] as SoakSample)) > THREAD_STEP;
    if (!step) continue;
    const after = measured.length - i;
    return after >= 4 && after >= measured.length / 2 ? (measured[i] as SoakSample).t : warmupSeconds;
  }
  return warmupSeconds;
}

export interface SoakLimits {
  /** Until the windows by age are full and the subscribers in: descriptors and threads are judged after it. */
  warmupSeconds: number;
  /**
   * Until the maps over the board's keys have settled too (`keyTablesSettledAt`): heap and RSS are
   * judged after it. Null when the run ended before: memory is then reported, not judged.
   */
  memoryWarmupSeconds: number | null;
  /** Whether a run that could not judge memory fails (a run long enough that its tables should have settled). */
  memoryVerdictRequired: boolean;
  /** Largest growth per hour allowed for heap and RSS (0.05: 5 %). */
  maxGrowthPerHour: number;
  /**
   * Descriptors (and threads) per hour the fitted line may rise by beyond its noise band. A leak
   * of one descriptor per reconnect rises by thousands an hour in the soak (docs/soak.md).
   */
  maxFdGrowthPerHour: number;
}

export interface SoakVerdict {
  /** One line per series judged, with its figures. */
  lines: string[];
  /** Why the soak fails; empty when it passes. */
  failures: string[];
}

const pct = (x: number): string => `${(x * 100).toFixed(2)} %`;

/**
 * A series fails only when its growth exceeds the limit by more than its noise band, so a short
 * run on a loaded machine (a handful of points on a GC sawtooth) does not fail by chance; a long
 * run's band is narrow. Descriptors are judged the same way, by a line through every reading
 * after the warm-up: reconnecting subscribers swing single readings by hundreds (801 to 1,090 in
 * one run), so two readings compared could fail a flat series or pass a leak. The per-thread
 * /proc files are left out of that count and the threads judged instead: those files fill for
 * many minutes up to three per thread (`SoakSample.threadFds`), so a flat thread count bounds them.
 */
export function judgeSoak(samples: readonly SoakSample[], limits: SoakLimits): SoakVerdict {
  const lines: string[] = [];
  const failures: string[] = [];
  const measured = samples.filter((s) => s.t >= limits.warmupSeconds);
  if (measured.length < 4) {
    failures.push(`only ${measured.length} readings after the ${limits.warmupSeconds} s warm-up: too few to fit a line (run longer)`);
    return { lines, failures };
  }
  const memoryFrom = limits.memoryWarmupSeconds;
  const memory = memoryFrom === null ? [] : samples.filter((s) => s.t >= memoryFrom);
  if (memoryFrom === null || memory.length < 4) {
    const mb = (pick: (s: SoakSample) => number): string =>
      `${Math.round(Math.min(...measured.map(pick)) / 1e6)} to ${Math.round(Math.max(...measured.map(pick)) / 1e6)} MB`;
    const why =
      memoryFrom === null
        ? "the board's key tables had not settled when the run ended"
        : `only ${memory.length} readings after the key tables settled at ${memoryFrom} s`;
    lines.push(
      `memory not judged (${why}; until then they fill by design): RSS ${mb((s) => s.rssBytes)}, heap used after major GC ${mb((s) => s.heapAfterGcBytes)} after the ${limits.warmupSeconds} s warm-up`,
    );
    if (limits.memoryVerdictRequired) failures.push(`memory could not be judged: ${why} (run longer, or at a higher rate)`);
  } else {
    const since = memoryFrom > limits.warmupSeconds ? `; judged from ${memoryFrom} s` : '';
    const series: [string, (s: SoakSample) => number][] = [
      ['RSS', (s) => s.rssBytes],
      ['heap used after major GC', (s) => s.heapAfterGcBytes],
    ];
    for (const [name, pick] of series) {
      const g = growthPerHour(memory, pick, memoryFrom);
      const over = g.perHour - (Number.isNaN(g.noise) ? 0 : g.noise) > limits.maxGrowthPerHour;
      lines.push(`${name}: ${pct(g.perHour)} per hour (noise band ± ${pct(g.noise)}; limit ${pct(limits.maxGrowthPerHour)}${since})`);
      if (over)
        failures.push(
          `${name} grows ${pct(g.perHour)} per hour after the warm-up (± ${pct(g.noise)}), over the ${pct(limits.maxGrowthPerHour)} limit`,
        );
    }
    const forced = memory.filter((s) => Number.isFinite(s.heapForcedGcBytes));
    if (forced.length >= 2) {
      const g = growthPerHour(forced, (s) => s.heapForcedGcBytes as number, memoryFrom);
      const mb = forced.map((s) => Math.round((s.heapForcedGcBytes as number) / 1e6));
      lines.push(
        `heap used after a forced full GC (a check on the judged reading, not judged): ${pct(g.perHour)} per hour (noise band ± ${pct(g.noise)}; ${forced.length} readings, ${Math.min(...mb)} to ${Math.max(...mb)} MB)`,
      );
    }
    const heap = growthPerHour(memory, (s) => s.heapUsedBytes, memoryFrom);
    lines.push(`heap used (as sampled, not judged): ${pct(heap.perHour)} per hour (± ${pct(heap.noise)})`);
  }
  // Descriptors without the per-thread /proc files, whose bound is the thread count, judged beside them.
  const counted: [string, (s: SoakSample) => number][] = [
    ['open descriptors (without per-thread /proc files)', (s) => s.fds - s.threadFds],
    ['threads', (s) => s.threads],
  ];
  const perHour = (x: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(0)}`;
  for (const [name, pick] of counted) {
    // The threads are judged from their last step on when that leaves enough to judge: a pool
    // that grew once (34 to 130 threads at once under a backlog, round five) and then held is
    // not growth, while a line through the step reads it as a slope.
    const from = name === 'threads' ? afterLastStep(measured, pick, limits.warmupSeconds) : limits.warmupSeconds;
    const judged = measured.filter((s) => s.t >= from);
    const g = slopePerHour(judged, pick, from);
    const noise = Number.isNaN(g.noise) ? 0 : g.noise;
    const values = measured.map(pick);
    const since = from > limits.warmupSeconds ? `; judged from its last step at ${from} s` : '';
    lines.push(
      `${name}: ${perHour(g.perHour)} per hour (noise band ± ${noise.toFixed(0)}; limit ${perHour(limits.maxFdGrowthPerHour)}; readings ${Math.min(...values)} to ${Math.max(...values)}${since})`,
    );
    if (g.perHour - noise > limits.maxFdGrowthPerHour)
      failures.push(
        `${name} grow ${perHour(g.perHour)} per hour after the warm-up (± ${noise.toFixed(0)}), over the limit of ${perHour(limits.maxFdGrowthPerHour)}`,
      );
  }
  const threadFds = measured.map((s) => s.threadFds);
  lines.push(
    `per-thread /proc files (bounded by 3 per thread, not judged): ${Math.min(...threadFds)} to ${Math.max(...threadFds)}; all descriptors ${Math.min(...measured.map((s) => s.fds))} to ${Math.max(...measured.map((s) => s.fds))}`,
  );
  return { lines, failures };
}
