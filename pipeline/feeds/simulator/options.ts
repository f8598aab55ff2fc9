import { LEAGUES, type LeagueDef, SPORTSBOOKS, type SportsbookDef, TEAMS, type TeamDef } from '../../../schemas/index.js';
import { type Clock, systemClock } from '../../clock.js';
import { LIVE_REGIME, type LiveMoves } from './dynamics.js';

/** The reference data the simulator draws from; the real catalog unless a test passes its own. */
export interface SimulatorCatalog {
  teams: readonly TeamDef[];
  leagues: readonly LeagueDef[];
  books: readonly SportsbookDef[];
}

export interface MarketSimulatorOptions {
  /** Same seed and same step times give the same ticks. Default 42. */
  seed?: number;
  /** Start time of the simulation, and with it the month that decides which leagues are in season. */
  clock?: Clock;
  /** Any part left out comes from the real catalog (`TEAMS`, `LEAGUES`, `SPORTSBOOKS`). */
  catalog?: Partial<SimulatorCatalog>;
  /**
   * Events (upcoming and live) kept on the board per in-season league, if it has the teams.
   * Default 10: with the full catalog in November (23 leagues in season) about 230 events and
   * 45-50k odds rows; the simulator tests pin the figure.
   */
  eventsPerLeague?: number;
  /** How far ahead events are listed. Default 72 hours. */
  horizonMs?: number;
  /** Share of each league's events already under way at start. Default 0.1. */
  liveShare?: number;
  /**
   * Single markets a book suspends and later restores, board-wide: four in five locked at their
   * prices, one in five taken down. Default 4 a minute.
   */
  suspensionsPerMinute?: number;
  /** Share of new events played at a neutral site (some books then list home and away reversed). Default 0.05. */
  neutralSiteShare?: number;
  /** Share of games postponed at their start time instead of played. Default 0.01. */
  postponedShare?: number;
  /**
   * How the truth of a game in play moves between scores: logit drift per sqrt(minute), news jumps
   * per minute and a jump's logit standard deviation. Default `LIVE_REGIME` (dynamics.ts); the
   * calibration bench varies it to see what the live market's figures depend on.
   */
  liveMoves?: Partial<LiveMoves>;
  /**
   * Whether a step spends what its budget leaves after the books' cadences on early reprices of
   * random quotes, so that the feed produces the activity it is asked for (default true: the
   * benchmarks). Every such reprice confirms a price ahead of its book's cadence, so the
   * calibration bench turns it off to see the books' own cadences (docs/simulator.md, "Stop 49").
   */
  fillBudget?: boolean;
}

export interface ResolvedSimulatorOptions {
  seed: number;
  clock: Clock;
  catalog: SimulatorCatalog;
  eventsPerLeague: number;
  horizonMs: number;
  liveShare: number;
  suspensionsPerMinute: number;
  neutralSiteShare: number;
  postponedShare: number;
  liveMoves: LiveMoves;
  fillBudget: boolean;
}

function check(name: string, value: number, min: number, max: number): number {
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new RangeError(`simulator option ${name} must be in [${min}, ${max}], got ${value}`);
  }
  return value;
}

export function resolveSimulatorOptions(options: MarketSimulatorOptions = {}): ResolvedSimulatorOptions {
  return {
    seed: check('seed', options.seed ?? 42, -(2 ** 31), 2 ** 32 - 1),
    clock: options.clock ?? systemClock,
    catalog: {
      teams: options.catalog?.teams ?? TEAMS,
      leagues: options.catalog?.leagues ?? LEAGUES,
      books: options.catalog?.books ?? SPORTSBOOKS,
    },
    eventsPerLeague: Math.floor(check('eventsPerLeague', options.eventsPerLeague ?? 10, 0, 10_000)),
    horizonMs: check('horizonMs', options.horizonMs ?? 72 * 3_600_000, 3_600_000, 60 * 86_400_000),
    liveShare: check('liveShare', options.liveShare ?? 0.1, 0, 1),
    suspensionsPerMinute: check('suspensionsPerMinute', options.suspensionsPerMinute ?? 4, 0, 1_000_000),
    neutralSiteShare: check('neutralSiteShare', options.neutralSiteShare ?? 0.05, 0, 1),
    postponedShare: check('postponedShare', options.postponedShare ?? 0.01, 0, 1),
    liveMoves: {
      drift: check('liveMoves.drift', options.liveMoves?.drift ?? LIVE_REGIME.drift, 0, 10),
      jumpsPerMinute: check('liveMoves.jumpsPerMinute', options.liveMoves?.jumpsPerMinute ?? LIVE_REGIME.jumpsPerMinute, 0, 60),
      jumpSize: check('liveMoves.jumpSize', options.liveMoves?.jumpSize ?? LIVE_REGIME.jumpSize, 0, 10),
    },
    fillBudget: options.fillBudget ?? true,
  };
}
