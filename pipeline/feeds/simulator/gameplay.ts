import type { EventStatus, GameStateExtras, LeagueDef, RawGameState, Side } from '../../../schemas/index.js';
import type { SimEvent } from './board.js';
import { Prng, hash2, hashString } from './prng.js';

/**
 * Games played out: score, period, clock and possession (server in tennis) from kickoff to
 * final. Scoring is a Poisson process per side whose rates come from the truth at kickoff
 * (expected home and away points over the game's length); each score moves the truth by the
 * points scored (the expected final margin and total follow the scoreboard), while the points
 * the game was expected to produce meanwhile are taken off, so the truth stays the expected
 * final result. The simulator requotes after a score, sharp books first (their lag is shortest).
 *
 * Randomness comes from a stream of its own per event (seed and event serial), so adding game
 * play changed nothing of the odds the simulator produced before.
 */

interface SportPlay {
  /** Number of periods and how each is labelled (1-based). */
  periods: number;
  label: (period: number) => string;
  /** Minutes on the game clock per period (counting down), or null without a clock. */
  clockMinutes: number | null;
  /** Soccer-style clock counting up through the match. */
  clockUp?: boolean;
  /** Points of one score and their weights. */
  scores: readonly (readonly [number, number])[];
  possession: boolean;
  server: boolean;
}

const ONE: readonly (readonly [number, number])[] = [[1, 1]];

const PLAY: Readonly<Record<string, SportPlay>> = {
  basketball: {
    periods: 4,
    label: (p) => `Q${p}`,
    clockMinutes: 12,
    scores: [
      [2, 0.7],
      [3, 0.22],
      [1, 0.08],
    ],
    possession: true,
    server: false,
  },
  football: {
    periods: 4,
    label: (p) => `Q${p}`,
    clockMinutes: 15,
    scores: [
      [7, 0.6],
      [3, 0.37],
      [2, 0.03],
    ],
    possession: true,
    server: false,
  },
  hockey: { periods: 3, label: (p) => `P${p}`, clockMinutes: 20, scores: ONE, possession: false, server: false },
  soccer: { periods: 2, label: (p) => `${p}H`, clockMinutes: 45, clockUp: true, scores: ONE, possession: false, server: false },
  baseball: {
    periods: 18,
    label: (p) => `${p % 2 === 1 ? 'T' : 'B'}${Math.ceil(p / 2)}`,
    clockMinutes: null,
    scores: ONE,
    possession: false,
    server: false,
  },
  tennis: { periods: 3, label: (p) => `S${p}`, clockMinutes: null, scores: ONE, possession: false, server: true },
};
const DEFAULT_PLAY: SportPlay = { periods: 2, label: (p) => `P${p}`, clockMinutes: null, scores: ONE, possession: false, server: false };

export function sportPlay(sport: string): SportPlay {
  return PLAY[sport] ?? DEFAULT_PLAY;
}

/** The play-by-play state of one game. */
interface Play {
  rng: Prng;
  homeRate: number;
  awayRate: number;
  homeScore: number;
  awayScore: number;
  period: number;
  possession: Side | null;
  server: Side | null;
  extras: GameStateExtras;
  lastPlay: string | null;
  lastReportAt: number;
  lastStepAt: number;
}

/** A game's clock is reported at least this often while it is live (scores and periods report at once). */
const REPORT_EVERY_MS = 60_000;

export class GamePlay {
  private readonly plays = new Map<SimEvent, Play>();
  private readonly out: RawGameState[] = [];

  constructor(
    private readonly seed: number,
    /** Share of games that are postponed at their start time instead of played. */
    private readonly postponedShare: number,
  ) {}

  /** Whether this game is postponed rather than played (decided by seed and serial, no randomness drawn). */
  postponed(ev: SimEvent): boolean {
    return hash2(this.seed ^ 0x5eed, ev.serial) / 4294967296 < this.postponedShare;
  }

  /** Game state records produced since the last call. */
  take(): RawGameState[] {
    return this.out.splice(0, this.out.length);
  }

  /** Kickoff: rates from the truth, the scoreboard at 0-0. */
  start(ev: SimEvent, now: number): void {
    const rng = new Prng(hash2(this.seed, hashString(ev.id)));
    const total = Math.max(0, ev.state.total);
    const margin = ev.state.margin;
    const minutes = (ev.endTime - ev.startTime) / 60_000;
    const unit = meanPoints(sportPlay(ev.league.sport));
    const perSide = (share: number): number => (total > 0 ? Math.max(0.05 * total, share) / unit / minutes : 0);
    const play: Play = {
      rng,
      homeRate: perSide((total + margin) / 2),
      awayRate: perSide((total - margin) / 2),
      homeScore: 0,
      awayScore: 0,
      period: 1,
      possession: sportPlay(ev.league.sport).possession ? (rng.chance(0.5) ? 'home' : 'away') : null,
      server: sportPlay(ev.league.sport).server ? (rng.chance(0.5) ? 'home' : 'away') : null,
      extras: initialExtras(ev.league),
      lastPlay: null,
      lastReportAt: now,
      lastStepAt: Math.max(ev.startTime, Math.min(now, ev.endTime)),
    };
    this.plays.set(ev, play);
    this.report(ev, play, 'live', now);
  }

  /**
   * Plays the game forward to `now`. Returns the points scored (home minus away, and their sum)
   * so the simulator can move the truth and requote; null when nothing was scored.
   */
  step(ev: SimEvent, now: number): { diff: number; points: number } | null {
    const play = this.plays.get(ev);
    if (!play) return null;
    const to = Math.min(now, ev.endTime);
    const dtMin = (to - play.lastStepAt) / 60_000;
    if (dtMin <= 0) return null;
    play.lastStepAt = to;
    const sport = sportPlay(ev.league.sport);
    let diff = 0;
    let points = 0;
    const scored: string[] = [];
    for (const side of ['home', 'away'] as const) {
      const n = play.rng.poisson((side === 'home' ? play.homeRate : play.awayRate) * dtMin);
      for (let i = 0; i < n; i++) {
        const p = pick(sport.scores, play.rng);
        if (side === 'home') play.homeScore += p;
        else play.awayScore += p;
        diff += side === 'home' ? p : -p;
        points += p;
        scored.push(`${side} +${p}`);
        if (sport.possession) play.possession = side === 'home' ? 'away' : 'home';
        this.bumpExtras(ev.league, play, side);
      }
    }
    if (sport.possession && scored.length === 0 && play.rng.chance(Math.min(0.9, dtMin / 2))) {
      play.possession = play.possession === 'home' ? 'away' : 'home';
    }
    if (sport.server && scored.length > 0) play.server = play.server === 'home' ? 'away' : 'home';
    const period = periodAt(ev, to, sport);
    const periodChanged = period !== play.period;
    play.period = period;
    if (scored.length > 0) play.lastPlay = `${scored.join(', ')} (${sport.label(period)})`;
    if (scored.length > 0 || periodChanged || now - play.lastReportAt >= REPORT_EVERY_MS) this.report(ev, play, 'live', now);
    return scored.length > 0 ? { diff, points } : null;
  }

  /**
   * Expected points the game produces in (from, to], home minus away and total: the truth takes
   * them off as the clock runs, so it stays the expected final result.
   */
  expected(ev: SimEvent, dtMs: number): { diff: number; points: number } {
    const play = this.plays.get(ev);
    if (!play) return { diff: 0, points: 0 };
    const unit = meanPoints(sportPlay(ev.league.sport));
    const m = dtMs / 60_000;
    return { diff: (play.homeRate - play.awayRate) * unit * m, points: (play.homeRate + play.awayRate) * unit * m };
  }

  /** The final whistle (or a postponement): the last record of the game. */
  finish(ev: SimEvent, status: EventStatus, now: number): void {
    const play = this.plays.get(ev) ?? this.blank(ev, now);
    if (status === 'final') {
      const sport = sportPlay(ev.league.sport);
      play.period = sport.periods;
      play.possession = null;
      // Ties where the sport has none are settled in overtime (one more score).
      if (play.homeScore === play.awayScore && !ev.league.threeWay && ev.league.scoring.total > 0) {
        if (play.rng.chance(0.5)) play.homeScore += sport.scores[0]?.[0] ?? 1;
        else play.awayScore += sport.scores[0]?.[0] ?? 1;
        play.lastPlay = 'decided in overtime';
      }
    }
    this.report(ev, play, status, now);
    this.plays.delete(ev);
    this.lastFinal = status === 'final' ? { home: play.homeScore, away: play.awayScore } : null;
  }

  /** The score of the game `finish` last ended as final (futures move with it); null after other endings. */
  lastFinal: { home: number; away: number } | null = null;

  /** Final score of a finished game, for tests and grading checks. */
  score(ev: SimEvent): { home: number; away: number } | null {
    const p = this.plays.get(ev);
    return p ? { home: p.homeScore, away: p.awayScore } : null;
  }

  private blank(ev: SimEvent, now: number): Play {
    return {
      rng: new Prng(hash2(this.seed, hashString(ev.id))),
      homeRate: 0,
      awayRate: 0,
      homeScore: 0,
      awayScore: 0,
      period: 0,
      possession: null,
      server: null,
      extras: {},
      lastPlay: null,
      lastReportAt: now,
      lastStepAt: now,
    };
  }

  private bumpExtras(league: LeagueDef, play: Play, side: Side): void {
    const i = side === 'home' ? 0 : 1;
    const other = side === 'home' ? 1 : 0;
    if (league.sport === 'soccer' && play.extras.corners) {
      play.extras.corners[i] += play.rng.int(3);
      if (play.extras.yellowCards && play.rng.chance(0.3)) play.extras.yellowCards[other] += 1;
    }
    if (league.sport === 'tennis' && play.extras.sets) {
      // Every sixth game of a side wins it a set, roughly.
      const games = side === 'home' ? play.homeScore : play.awayScore;
      if (games % 6 === 0) play.extras.sets[i] += 1;
    }
    if (league.sport === 'baseball') play.extras.outs = play.rng.int(3);
  }

  private report(ev: SimEvent, play: Play, status: EventStatus, now: number): void {
    play.lastReportAt = now;
    const sport = sportPlay(ev.league.sport);
    const listing = ev.listings.find((l) => !l.flipped && l.book.isSharp) ?? ev.listings.find((l) => !l.flipped) ?? ev.listings[0];
    if (!listing) return;
    const live = status === 'live';
    this.out.push({
      kind: 'gamestate',
      book: listing.book.id,
      bookEventId: listing.bookEventId,
      sport: ev.league.sport,
      league: ev.league.id,
      homeTeam: listing.homeName,
      awayTeam: listing.awayName,
      status,
      homeScore: play.homeScore,
      awayScore: play.awayScore,
      period: status === 'final' ? 'FT' : play.period > 0 ? sport.label(play.period) : null,
      clock: live ? clockAt(ev, now, sport) : null,
      possession: live ? play.possession : null,
      server: live ? play.server : null,
      lastPlay: play.lastPlay,
      extras: structuredClone(play.extras),
      ts: now,
    });
  }
}

function meanPoints(sport: SportPlay): number {
  let w = 0;
  let s = 0;
  for (const [p, weight] of sport.scores) {
    s += p * weight;
    w += weight;
  }
  return w > 0 ? s / w : 1;
}

function pick(scores: readonly (readonly [number, number])[], rng: Prng): number {
  let r = rng.next();
  for (const [p, w] of scores) {
    if (r < w) return p;
    r -= w;
  }
  return scores[0]?.[0] ?? 1;
}

function periodAt(ev: SimEvent, now: number, sport: SportPlay): number {
  const f = Math.max(0, Math.min(0.999999, (now - ev.startTime) / (ev.endTime - ev.startTime)));
  return Math.floor(f * sport.periods) + 1;
}

/** mm:ss of the game clock: counting down within the period, or up through the match (soccer). */
function clockAt(ev: SimEvent, now: number, sport: SportPlay): string | null {
  if (sport.clockMinutes === null) return null;
  const f = Math.max(0, Math.min(1, (now - ev.startTime) / (ev.endTime - ev.startTime)));
  const inPeriod = f * sport.periods - Math.min(sport.periods - 1, Math.floor(f * sport.periods));
  const seconds =
    sport.clockUp === true ? Math.floor(f * sport.periods * sport.clockMinutes * 60) : Math.round((1 - inPeriod) * sport.clockMinutes * 60);
  const mm = Math.floor(seconds / 60);
  const ss = seconds % 60;
  return `${String(mm).padStart(2, '0')}:${String(ss).padStart(2, '0')}`;
}

function initialExtras(league: LeagueDef): GameStateExtras {
  switch (league.sport) {
    case 'soccer':
      return { corners: [0, 0], yellowCards: [0, 0], redCards: [0, 0] };
    case 'tennis':
      return { sets: [0, 0] };
    case 'hockey':
      return { powerPlay: null };
    case 'baseball':
      return { outs: 0 };
    default:
      return {};
  }
}
