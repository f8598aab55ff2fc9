import type { RawSplits, RawSplitSide, SplitMarket } from '../../../schemas/index.js';
import type { Listing, SimEvent } from './board.js';
import { logistic } from './pricing.js';
import { type Prng, unitHash } from './prng.js';

/**
 * Betting splits coupled to the simulated market. Tickets follow the public's habits: they lean
 * to the favourite (more so on moneylines than spreads), to the over, and to popular teams. A
 * recreational book's handle follows its tickets; at a sharp-friendly book, when sharp money
 * comes in on a side, the handle on that side runs ahead of the tickets, and the truth then
 * moves toward that side, so every book's line follows (the sharp books first, the soft ones
 * after their lag). Sharps fade the public more often than not, which makes reverse line
 * movement common, as it is in real markets.
 */

/** Which kind of book a splits publisher is. */
export type SplitsPublisher = 'recreational' | 'sharp';

export const SPLITS_PUBLISHERS: Readonly<Record<string, SplitsPublisher>> = { draftkings: 'recreational', circa: 'sharp' };

/** A sharp move on a market family: `side` 0 = home / over, 1 = away / under. */
interface Episode {
  side: 0 | 1;
  gap: number;
  /** Sharp money stays in until then (epoch ms). */
  until: number;
}

interface Family {
  /** Share of tickets on home (sides) or over (totals), drifting toward the public's target. */
  bets: number;
  /** The event's own lean, fixed at first sight. */
  bias: number;
  episode: Episode | null;
}

interface EventSplits {
  side: Family;
  total: Family;
}

/** Sharp episodes start at this rate per market family of an upcoming game (about one an hour and a half), whatever the splits interval. */
const EPISODES_PER_MS = 0.055 / (5 * 60_000);
const EPISODE_MIN_MS = 10 * 60_000;
const EPISODE_MAX_MS = 30 * 60_000;
const FADE_PUBLIC = 0.7;
/** How far the truth moves on a sharp episode, in logistic scales (past the books' line hysteresis). */
const SHARP_MOVE = 0.22;

const clamp = (x: number, lo: number, hi: number): number => Math.max(lo, Math.min(hi, x));
const r3 = (x: number): number => Math.round(x * 1000) / 1000;

/** How much the public likes a team: a few teams draw crowds whatever the matchup. */
export function popularity(teamId: string): number {
  const u = unitHash(teamId, 0x5917);
  return u > 0.8 ? 1 : u > 0.5 ? 0.4 : 0;
}

export class SplitsModel {
  private readonly state = new Map<number, EventSplits>();
  private lastRound = Number.NaN;

  constructor(private readonly rng: Prng) {}

  /**
   * One splits round at `now`: every open listing of a publishing book on an upcoming or live
   * event. Sharp episodes start on upcoming events only and move their truth; the events whose
   * truth moved are returned so the simulator can queue the books' requotes.
   */
  round(events: readonly SimEvent[], now: number): { splits: RawSplits[]; moved: SimEvent[] } {
    const splits: RawSplits[] = [];
    const moved: SimEvent[] = [];
    const seen = new Set<number>();
    // The first round sees a 5-minute window, like the rounds after it at the default interval.
    const dt = Number.isNaN(this.lastRound) ? 5 * 60_000 : Math.max(0, now - this.lastRound);
    this.lastRound = now;
    const episodeChance = 1 - Math.exp(-EPISODES_PER_MS * dt);
    for (const ev of events) {
      if (ev.status === 'final') continue;
      const listings = ev.listings.filter((l) => !l.closed && SPLITS_PUBLISHERS[l.book.id] !== undefined);
      if (listings.length === 0) continue;
      seen.add(ev.serial);
      const st = this.stateOf(ev);
      const pHome = logistic(ev.state.margin / ev.state.marginScale);
      const popular = popularity(ev.home.id) - popularity(ev.away.id);
      this.drift(st.side, clamp(0.5 + 0.5 * (pHome - 0.5) + 0.08 * popular + st.side.bias, 0.1, 0.9));
      this.drift(st.total, clamp(0.58 + st.total.bias, 0.25, 0.85));
      if (ev.status === 'upcoming' && this.advanceEpisode(st.side, ev, now, 'side', episodeChance)) moved.push(ev);
      if (ev.status === 'upcoming' && this.advanceEpisode(st.total, ev, now, 'total', episodeChance) && !moved.includes(ev)) moved.push(ev);
      for (const l of listings) splits.push(this.snapshot(l, st, pHome, now));
    }
    for (const serial of this.state.keys()) if (!seen.has(serial)) this.state.delete(serial);
    return { splits, moved };
  }

  private stateOf(ev: SimEvent): EventSplits {
    let st = this.state.get(ev.serial);
    if (!st) {
      const family = (): Family => ({ bets: Number.NaN, bias: 0.06 * this.rng.normal(), episode: null });
      st = { side: family(), total: family() };
      this.state.set(ev.serial, st);
    }
    return st;
  }

  /** Tickets accumulate, so the share moves slowly toward where the public wants it. */
  private drift(f: Family, target: number): void {
    f.bets = Number.isNaN(f.bets) ? target : clamp(f.bets + 0.3 * (target - f.bets) + 0.01 * this.rng.normal(), 0.05, 0.95);
  }

  /** Runs the family's sharp episode down, or starts one; returns whether the truth moved. */
  private advanceEpisode(f: Family, ev: SimEvent, now: number, kind: 'side' | 'total', chance: number): boolean {
    if (f.episode) {
      if (now < f.episode.until) return false;
      f.episode = null;
    }
    if (!this.rng.chance(chance)) return false;
    const publicSide: 0 | 1 = f.bets >= 0.5 ? 0 : 1;
    const side: 0 | 1 = this.rng.chance(FADE_PUBLIC) ? (publicSide === 0 ? 1 : 0) : publicSide;
    f.episode = { side, gap: this.rng.range(0.15, 0.35), until: now + this.rng.range(EPISODE_MIN_MS, EPISODE_MAX_MS) };
    // Sharp money on home (or over) makes that side dearer: the truth moves its way.
    const sign = side === 0 ? 1 : -1;
    const st = ev.state;
    if (kind === 'side') {
      const delta = sign * SHARP_MOVE * st.marginScale;
      st.margin += delta;
      ev.jumpMargin = delta;
      ev.jumpTotal = 0;
    } else {
      const delta = sign * SHARP_MOVE * st.totalScale;
      st.total = Math.max(st.total * 0.5, st.total + delta);
      ev.jumpTotal = delta;
      ev.jumpMargin = 0;
    }
    ev.jumpAt = now;
    return true;
  }

  private snapshot(l: Listing, st: EventSplits, pHome: number, now: number): RawSplits {
    const ev = l.event;
    const sharpBook = SPLITS_PUBLISHERS[l.book.id] === 'sharp';
    const sides: RawSplitSide[] = [];
    const markets = ev.league.markets;
    const add = (market: SplitMarket, first: string, second: string, family: Family, lean: number): void => {
      // A sharp book's tickets are less one-sided than a recreational book's.
      const bets = clamp((sharpBook ? 0.5 + 0.7 * (family.bets - 0.5) : family.bets) + lean + 0.015 * this.rng.normal(), 0.03, 0.97);
      let handle = bets + (bets - 0.5) * 0.1 + 0.015 * this.rng.normal();
      const e = family.episode;
      if (e) {
        const toFirst = e.side === 0 ? 1 : -1;
        handle += toFirst * e.gap * (sharpBook ? 1 : 0.3);
      }
      handle = clamp(handle, 0.02, 0.98);
      sides.push({ market, outcome: first, betPct: r3(bets), handlePct: r3(handle) });
      sides.push({ market, outcome: second, betPct: r3(1 - r3(bets)), handlePct: r3(1 - r3(handle)) });
    };
    if (markets.includes('point_spread')) add('spread', l.homeName, l.awayName, st.side, 0);
    if (markets.includes('total_points')) add('total', 'Over', 'Under', st.total, 0);
    // Moneyline tickets lean to the favourite harder than spread tickets (three-way markets have no split here).
    if (markets.includes('moneyline') && !ev.league.threeWay) add('moneyline', l.homeName, l.awayName, st.side, 0.3 * (pHome - 0.5));
    return {
      kind: 'splits',
      book: l.book.id,
      bookEventId: l.bookEventId,
      sport: ev.league.sport,
      league: ev.league.id,
      homeTeam: l.homeTeam,
      awayTeam: l.awayTeam,
      startTime: l.startTime,
      isLive: ev.status === 'live',
      ts: now,
      sides,
    };
  }
}
