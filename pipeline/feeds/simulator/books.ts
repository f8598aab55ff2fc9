import type { SportsbookDef, TeamDef } from '../../../schemas/index.js';
import { type Prng, hashString, unitHash } from './prng.js';

/** How a book writes its ids; every book has its own, as real feeds do. */
export type IdFormat =
  | { kind: 'numeric'; start: number; spread: number }
  | { kind: 'prefixed'; prefix: string; start: number; spread: number }
  | { kind: 'uuid' }
  | { kind: 'slug'; start: number };

/** How a book reports start times: the cases that defeat a naive start-time match. */
export type StartTimeHabit =
  | { kind: 'exact' }
  /** Off by one of `minutes` for a `share` of events (a wrong local-time conversion, a stale listing). */
  | { kind: 'offset'; minutes: readonly number[]; share: number }
  | { kind: 'roundHour' };

export interface BookProfile {
  /** Position in the catalog; used for deterministic per-book choices. */
  index: number;
  id: string;
  isSharp: boolean;
  hasLiveOdds: boolean;
  hasPlayerProps: boolean;
  /** Margin built into every market in play (0.02 = a 2% overround). */
  overround: number;
  /** The same before the game, narrower (`LIVE_WIDENING`). */
  prematchOverround: number;
  /** Price increment near even money, in cents. */
  cents: number;
  /** How long after the sharp move the book follows it in play. */
  lagMs: number;
  /**
   * The same before the game: books watch pre-match lines less closely, so soft books follow a
   * move minutes later (the recordings' soft books take a minute to an hour; docs/simulator.md).
   */
  prematchLagMs: number;
  /**
   * How often the book stands behind each of its prices again (a confirmation, or a reprice when
   * the game moved), pre-match and in play; each time with a jitter of +-25 %.
   */
  confirmMs: Readonly<Record<GamePhase, number>>;
  /** Share of scores after which the book locks its markets of the game until it has repriced. */
  suspendsOnScore: number;
  /**
   * Share of time a quote of this book sits untouched while the market moves, and how long such a
   * spell lasts, pre-match and in play.
   */
  staleShare: Readonly<Record<GamePhase, number>>;
  staleWindowMs: Readonly<Record<GamePhase, number>>;
  /** Share of quotes the book shades (moves a side away from the fair split). */
  shadeShare: number;
  /** Standard deviation of the book's own opinion, as a probability shift, drawn when a line is set. */
  opinion: number;
  /**
   * Standard deviation of the book's wandering lean, as a probability shift: on top of its
   * opinion, each quote's lean drifts back and forth over hours (`WANDER_HOURS`, board.ts).
   */
  wander: number;
  /**
   * How often the book moves that wandering lean of each of its quotes before the game, per hour
   * (its own steps; in play it moves at every reprice). 0: at every reprice in both phases.
   */
  ownStepsPerHour: number;
  /**
   * The sharp book whose line this book prices as its own before the game, moving when it moves
   * (`PregameFollowing`), or null: BetOnline with LowVig, its twin (docs/simulator.md, "Stop 55").
   */
  pricesWith: string | null;
  /** Share of events the book lists at all. */
  coverage: number;
  eventIds: IdFormat;
  /** Selection ids for deep links; null when the book offers none. */
  selectionIds: IdFormat | null;
  startTime: StartTimeHabit;
  /** Lists neutral-site games with home and away the other way round. */
  flipsNeutralSites: boolean;
}

export type GamePhase = 'prematch' | 'live';

type Habits = Omit<BookProfile, 'index' | 'id' | 'isSharp' | 'hasLiveOdds' | 'hasPlayerProps' | 'prematchOverround'> & {
  /** Where the recordings measured it; otherwise the in-play margin narrowed by `LIVE_WIDENING`. */
  prematchOverround?: number;
};

/**
 * How much wider a book's margin is in play than before the game: the recorded books' median
 * overround (implied probabilities summed, less one) of their in-play markets over their
 * pre-match ones, 1.06-1.45 per book for the eight that price in play, 1.365 at the median
 * (`npx tsx bench/book-margins-table.ts`; docs/simulator.md, "Stop 56"). The books' in-play margins
 * are as before; before the game the simulated ones held 6.0-6.3 % at the median against the
 * recordings' 4.1-5.0 %.
 */
export const LIVE_WIDENING = 1.37;

/**
 * How often a book confirms its prices before the game. The recordings' `last_update` of a
 * book's market is a snapshot's time minus 25-38 s at the median for 8 of their 11 books, and
 * never more than 64-104 s at the 99th percentile (docs/simulator.md, "Stop 49"): a price stood
 * behind about once a minute, as The Odds API documents its pre-match refresh (60 s). It was
 * 5-10 minutes, which left the simulated prices several times older than the recorded ones.
 */
const PREMATCH_CONFIRM_MS = 60_000;

/** A soft book's pre-match lag is this multiple of its live one; a sharp book's, twice it. */
const SOFT_PREMATCH_LAG = 5;

/** A soft book's own steps before the game, per hour per quote (`BookProfile.ownStepsPerHour`). */
const SOFT_OWN_STEPS_PER_HOUR = 0.075;

const SHARP: Habits = {
  overround: 0.025,
  cents: 1,
  lagMs: 1_500,
  prematchLagMs: 3_000,
  // The recordings' one sharp book, LowVig, confirms as often as their soft books before the game.
  confirmMs: { prematch: PREMATCH_CONFIRM_MS, live: 30_000 },
  suspendsOnScore: 0,
  staleShare: { prematch: 0, live: 0 },
  staleWindowMs: { prematch: 0, live: 0 },
  shadeShare: 0,
  opinion: 0.002,
  // The recordings carry no sharp book but LowVig, which prices as BetOnline does: nothing to
  // measure a sharp book's wander against, so their leans stay as they were.
  wander: 0,
  ownStepsPerHour: 0,
  pricesWith: null,
  coverage: 1,
  eventIds: { kind: 'numeric', start: 5_000_000, spread: 20 },
  selectionIds: null,
  startTime: { kind: 'exact' },
  flipsNeutralSites: false,
};

const SOFT: Habits = {
  overround: 0.055,
  cents: 5,
  lagMs: 25_000,
  prematchLagMs: 200_000,
  // In play the recorded books confirm about as often as before the game (25-46 s at the median).
  confirmMs: { prematch: PREMATCH_CONFIRM_MS, live: 60_000 },
  suspendsOnScore: 0.95,
  // Recorded, a pre-match price is older than five minutes 0-1.7 % of the time for the books that
  // confirm each minute (2 % of six-minute spells gives about 0.5 %); in play 2.5-15 % per book,
  // median 7 %, and up to 8-15 minutes at the 99th percentile: sitting is an in-play habit, in
  // spells of about twelve minutes (docs/simulator.md, "Stop 49").
  staleShare: { prematch: 0.02, live: 0.1 },
  staleWindowMs: { prematch: 6 * 60_000, live: 12 * 60_000 },
  shadeShare: 0.04,
  opinion: 0.004,
  // The recordings' books wander off the consensus and back over about a day, beyond their
  // lasting opinion; 0.45 points brings the books' spread around the consensus (p90 0.77-0.82
  // points, every market type) to the recordings' 1.0-1.2 (docs/simulator.md, "Stop 48").
  wander: 0.0045,
  // The recorded soft books step on their own before the game (their moneyline moved while the
  // lead book's had stood still for six hours) at this rate per game, pooled over the ten soft
  // books of both recordings (`npx tsx bench/pregame-steps.ts`; docs/simulator.md, "Stop 52").
  ownStepsPerHour: SOFT_OWN_STEPS_PER_HOUR,
  pricesWith: null,
  coverage: 0.97,
  eventIds: { kind: 'numeric', start: 20_000_000, spread: 40 },
  selectionIds: null,
  startTime: { kind: 'exact' },
  flipsNeutralSites: false,
};

/**
 * Habits of the catalog's books. Vig from public market widths (Pinnacle about -104/-104,
 * US retail -110/-110, offshore retail wider); id formats shaped like each book's own. The eleven
 * books of the recordings price before the game at their recorded median margin
 * (`prematchOverround`, set so that the simulated median meets it: rounding a price in the book's
 * favour adds 0.2-1.8 points, the most at the ten-cent books; `npx tsx bench/book-margins-table.ts`).
 */
const KNOWN: Readonly<Record<string, Partial<Habits>>> = {
  pinnacle: { overround: 0.02, lagMs: 500, eventIds: { kind: 'numeric', start: 1_610_000_000, spread: 30 } },
  circa: { overround: 0.025, lagMs: 1_500, eventIds: { kind: 'numeric', start: 4_100_000, spread: 5 } },
  bookmaker: { overround: 0.028, lagMs: 2_000, eventIds: { kind: 'numeric', start: 13_500_000, spread: 12 } },
  betfair_ex_eu: { overround: 0.018, lagMs: 300, eventIds: { kind: 'prefixed', prefix: '1.2', start: 30_000_000, spread: 400 } },
  lowvig: { overround: 0.025, prematchOverround: 0.0326, lagMs: 2_500, eventIds: { kind: 'numeric', start: 7_700_000, spread: 9 } },
  betonlineag: {
    overround: 0.045,
    prematchOverround: 0.0267,
    lagMs: 8_000,
    startTime: { kind: 'roundHour' },
    eventIds: { kind: 'numeric', start: 2_300_000, spread: 7 },
    // LowVig's twin in the recordings: its moneyline is LowVig's to the cent in 99.7 % of the
    // pre-match sightings and it took 148 of LowVig's 152 steps at the same snapshot, so it
    // carries no lean of its own and takes no steps of its own (docs/simulator.md, "Stop 55").
    pricesWith: 'lowvig',
    opinion: 0,
    shadeShare: 0,
    wander: 0,
    ownStepsPerHour: 0,
  },
  draftkings: {
    overround: 0.048,
    prematchOverround: 0.0348,
    lagMs: 15_000,
    eventIds: { kind: 'numeric', start: 31_000_000, spread: 30 },
    selectionIds: { kind: 'prefixed', prefix: '0QA', start: 240_000_000, spread: 3 },
  },
  fanduel: {
    overround: 0.045,
    prematchOverround: 0.0375,
    lagMs: 12_000,
    // Recorded: 12-25 s old at the median before the game, 14-31 s in play, the quickest of the eleven.
    confirmMs: { prematch: 36_000, live: 45_000 },
    eventIds: { kind: 'prefixed', prefix: '34.', start: 10_000_000, spread: 25 },
    selectionIds: { kind: 'numeric', start: 60_000_000, spread: 2 },
  },
  betmgm: {
    overround: 0.06,
    prematchOverround: 0.045,
    lagMs: 30_000,
    eventIds: { kind: 'numeric', start: 14_000_000, spread: 15 },
    selectionIds: { kind: 'prefixed', prefix: '0ML', start: 500_000_000, spread: 4 },
  },
  caesars: {
    overround: 0.055,
    prematchOverround: 0.0406,
    lagMs: 25_000,
    // The recordings' williamhill_us (Caesars): 78-122 s old at the median before the game and
    // 439-475 s at the 95th percentile, the slowest of the eleven; 69-84 s in play.
    confirmMs: { prematch: 240_000, live: 150_000 },
    eventIds: { kind: 'uuid' },
    selectionIds: { kind: 'uuid' },
  },
  espnbet: { overround: 0.05, lagMs: 20_000, eventIds: { kind: 'uuid' } },
  betrivers: { overround: 0.06, prematchOverround: 0.0515, lagMs: 40_000, eventIds: { kind: 'numeric', start: 1_020_000_000, spread: 50 } },
  fanatics: {
    overround: 0.055,
    prematchOverround: 0.0401,
    lagMs: 35_000,
    eventIds: { kind: 'prefixed', prefix: 'FAN-', start: 800_000, spread: 3 },
  },
  hardrockbet: { overround: 0.06, lagMs: 45_000, eventIds: { kind: 'numeric', start: 3_900_000, spread: 6 } },
  bovada: { overround: 0.065, prematchOverround: 0.0373, lagMs: 50_000, eventIds: { kind: 'slug', start: 202_000 } },
  mybookieag: {
    overround: 0.075,
    prematchOverround: 0.039,
    cents: 10,
    lagMs: 60_000,
    // Recorded: 66-69 s old at the median before the game and at most 130 s (both recordings), 83-106 s in play.
    confirmMs: { prematch: 130_000, live: 190_000 },
    startTime: { kind: 'offset', minutes: [-30, 30, 60], share: 0.5 },
  },
  betus: {
    overround: 0.08,
    prematchOverround: 0.0284,
    cents: 10,
    lagMs: 55_000,
    startTime: { kind: 'offset', minutes: [5, 10, 15], share: 0.6 },
    eventIds: { kind: 'prefixed', prefix: 'BUS', start: 440_000, spread: 2 },
  },
  bet365: { overround: 0.05, lagMs: 10_000, flipsNeutralSites: true, eventIds: { kind: 'numeric', start: 150_000_000, spread: 80 } },
  williamhill: {
    overround: 0.06,
    cents: 10,
    lagMs: 30_000,
    flipsNeutralSites: true,
    eventIds: { kind: 'prefixed', prefix: 'OB_EV', start: 24_000_000, spread: 11 },
  },
  unibet: { overround: 0.055, lagMs: 25_000, flipsNeutralSites: true, eventIds: { kind: 'numeric', start: 1_004_000_000, spread: 21 } },
  sportsbet: {
    overround: 0.065,
    cents: 10,
    lagMs: 40_000,
    coverage: 0.9,
    startTime: { kind: 'offset', minutes: [60, 90], share: 0.4 },
    eventIds: { kind: 'numeric', start: 8_100_000, spread: 4 },
  },
};

/**
 * Profiles for a catalog. Books missing from the table get the defaults of their kind, with
 * a spread of vig and lag derived from the id, so a test catalog still behaves like a market.
 */
export function bookProfiles(defs: readonly SportsbookDef[]): BookProfile[] {
  return defs.map((def, index) => {
    const base = def.isSharp ? SHARP : SOFT;
    const known = KNOWN[def.id];
    const u = unitHash(def.id, 7);
    const derived: Partial<Habits> = def.isSharp
      ? { overround: 0.02 + 0.01 * u, lagMs: 500 + 2_000 * u }
      : { overround: 0.045 + 0.035 * u, lagMs: 5_000 + 55_000 * u };
    const habits = { ...base, ...(known ?? derived) };
    // Each book its own cadence around its kind's, the same for every run (a hash, no randomness),
    // unless the recordings measured the book's own.
    const pace = known?.confirmMs !== undefined ? 1 : 0.6 + 0.8 * unitHash(def.id, 17);
    return {
      ...habits,
      prematchOverround: habits.prematchOverround ?? habits.overround / LIVE_WIDENING,
      prematchLagMs: habits.lagMs * (def.isSharp ? 2 : SOFT_PREMATCH_LAG),
      confirmMs: { prematch: habits.confirmMs.prematch * pace, live: habits.confirmMs.live * pace },
      index,
      id: def.id,
      isSharp: def.isSharp,
      hasLiveOdds: def.hasLiveOdds,
      hasPlayerProps: def.hasPlayerProps,
    };
  });
}

/** Per-book counters, so that ids keep the shape and monotonic growth of a real book's ids. */
export class IdSequence {
  private counter: number;

  constructor(
    private readonly format: IdFormat,
    private readonly rng: Prng,
  ) {
    this.counter = 'start' in format ? format.start + rng.int(1_000) : 0;
  }

  next(slugParts?: readonly string[]): string {
    const f = this.format;
    switch (f.kind) {
      case 'numeric':
        this.counter += 1 + this.rng.int(f.spread);
        return String(this.counter);
      case 'prefixed':
        this.counter += 1 + this.rng.int(f.spread);
        return f.prefix + String(this.counter);
      case 'uuid':
        return uuidFrom(this.rng);
      case 'slug':
        this.counter += 1;
        return `${(slugParts ?? []).map(slugify).join('-')}-${this.counter}`;
    }
  }
}

function hex8(n: number): string {
  return (n >>> 0).toString(16).padStart(8, '0');
}

function uuidFrom(rng: Prng): string {
  const a = hex8(rng.nextUint32());
  const b = hex8(rng.nextUint32());
  const c = hex8(rng.nextUint32());
  const d = hex8(rng.nextUint32());
  return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-${(8 + rng.int(4)).toString(16)}${c.slice(1, 4)}-${c.slice(4)}${d}`;
}

function slugify(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * The names a book may use for a team: its name and aliases, minus the bare abbreviation
 * (books put abbreviations in scoreboards, not in event names).
 */
export function teamSpellings(team: TeamDef): string[] {
  const all = [team.name, ...team.aliases];
  const out: string[] = [];
  for (const s of all) {
    if (team.abbreviation !== null && s === team.abbreviation) continue;
    if (!out.includes(s)) out.push(s);
  }
  return out.length > 0 ? out : [team.name];
}

/**
 * The spelling a book always uses for a team. Books take turns through the spellings, offset
 * per team, so that across ~20 books every alias of a team is in use somewhere.
 */
export function spellTeam(book: BookProfile, team: TeamDef): string {
  const options = teamSpellings(team);
  return options[(book.index + hashString(team.id)) % options.length] ?? team.name;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export function reportedStartTime(book: BookProfile, eventSerial: number, trueStart: number): number {
  const habit = book.startTime;
  switch (habit.kind) {
    case 'exact':
      return trueStart;
    case 'roundHour':
      return Math.round(trueStart / HOUR) * HOUR;
    case 'offset': {
      const h = hashString(`${book.id}:${eventSerial}`, 11);
      if (h / 4294967296 >= habit.share) return trueStart;
      const minutes = habit.minutes[h % habit.minutes.length] ?? 0;
      return trueStart + minutes * MINUTE;
    }
  }
}

/** Whether the book lists this event at all (sharps list everything). */
export function listsEvent(book: BookProfile, eventSerial: number): boolean {
  return book.coverage >= 1 || unitHash(`${book.id}#${eventSerial}`, 13) < book.coverage;
}

/**
 * Makes sure a catalog exercises the start-time and home/away cases even when none of its books
 * is in the table above (test catalogs): the last soft books take the habits over.
 */
export function ensureTrapHabits(profiles: BookProfile[]): BookProfile[] {
  const soft = profiles.filter((p) => !p.isSharp);
  const pool = soft.length > 0 ? soft : profiles;
  const last = (k: number): BookProfile | undefined => pool[Math.max(0, pool.length - 1 - k)];
  if (!profiles.some((p) => p.startTime.kind === 'roundHour')) {
    const p = last(0);
    if (p !== undefined) p.startTime = { kind: 'roundHour' };
  }
  if (!profiles.some((p) => p.startTime.kind === 'offset')) {
    const p = last(1);
    if (p !== undefined && p.startTime.kind === 'exact') p.startTime = { kind: 'offset', minutes: [15, 45, 90], share: 0.5 };
  }
  if (!profiles.some((p) => p.flipsNeutralSites)) {
    const p = last(2);
    if (p !== undefined) p.flipsNeutralSites = true;
  }
  return profiles;
}
