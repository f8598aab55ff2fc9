import type { LeagueDef, TeamDef } from '../../../schemas/index.js';
import type { SimEvent } from './board.js';
import type { ResolvedSimulatorOptions } from './options.js';
import type { Prng } from './prng.js';
import {
  type EventPlan,
  MINUTE,
  TeamCalendar,
  durationMs,
  inSeason,
  monthOf,
  pickPair,
  quantizeStart,
  randomStart,
  teamsByLeague,
} from './schedule.js';
import { type TrapContext, planDoubleheader, planNameTwins } from './traps.js';

/** A league (or trap) that could not be filled is tried again after this pause, not on every step. */
const RETRY_MS = 15 * MINUTE;

/**
 * Decides which games are on the board: the opening board, then new games as old ones end, so
 * that every in-season league keeps `eventsPerLeague` and the matcher traps stay present.
 * Every accepted plan is booked in the team calendar at once.
 */
export class Planner {
  private readonly calendar = new TeamCalendar();
  private readonly teams: Map<string, TeamDef[]>;
  private readonly retryAt = new Map<string, number>();

  constructor(
    private readonly opts: ResolvedSimulatorOptions,
    private readonly rng: Prng,
  ) {
    this.teams = teamsByLeague(opts.catalog.teams, opts.catalog.leagues);
  }

  release(ev: SimEvent): void {
    this.calendar.release(ev.home.id, ev.startTime);
    this.calendar.release(ev.away.id, ev.startTime);
  }

  /** The opening board: traps first (they need free teams), then each league, some games already under way. */
  opening(now: number): EventPlan[] {
    const { eventsPerLeague, liveShare, horizonMs, neutralSiteShare } = this.opts;
    if (eventsPerLeague === 0) return [];
    const rng = this.rng;
    const leagues = this.inSeasonLeagues(now);
    const ctx = this.trapContext(leagues, now);
    const plans = [...planDoubleheader(ctx), ...planNameTwins(ctx)].map((p) => this.accept(p));
    for (const league of leagues) {
      const teams = this.teams.get(league.id) ?? [];
      const want = eventsPerLeague - plans.filter((p) => p.league === league).length;
      const live = Math.round(eventsPerLeague * liveShare);
      const duration = durationMs(league);
      for (let k = 0; k < want; k++) {
        for (let attempt = 0; attempt < 6; attempt++) {
          const start =
            k < live ? quantizeStart(now - rng.range(0.05, 0.85) * duration) : randomStart(rng, now + 10 * MINUTE, now + horizonMs);
          const pair = pickPair(teams, start, this.calendar, rng);
          if (pair === null) continue;
          const neutralSite = rng.chance(neutralSiteShare);
          plans.push(this.accept({ league, home: pair[0], away: pair[1], startTime: start, neutralSite, traps: [] }));
          break;
        }
      }
    }
    // Every run lists at least one neutral-site game, so the reversed home/away case is always there.
    if (!plans.some((p) => p.neutralSite)) {
      const p = plans.find((x) => x.traps.length === 0 && x.startTime > now) ?? plans.find((x) => x.traps.length === 0);
      if (p !== undefined) p.neutralSite = true;
    }
    return plans;
  }

  /** New games for leagues below their count (listed near the horizon), and traps that have ended. */
  refill(now: number, active: readonly SimEvent[]): EventPlan[] {
    const { eventsPerLeague, horizonMs, neutralSiteShare } = this.opts;
    if (eventsPerLeague === 0) return [];
    const rng = this.rng;
    const count = new Map<string, number>();
    let neutral = false;
    let doubleheader = false;
    let twins = false;
    for (const ev of active) {
      count.set(ev.league.id, (count.get(ev.league.id) ?? 0) + 1);
      neutral ||= ev.neutralSite;
      doubleheader ||= ev.traps.includes('doubleheader');
      twins ||= ev.traps.includes('name_twin');
    }
    const leagues = this.inSeasonLeagues(now);
    const plans: EventPlan[] = [];
    const ctx = this.trapContext(leagues, now);
    if (!doubleheader) plans.push(...this.retrying('doubleheader', now, () => planDoubleheader(ctx)));
    if (!twins) plans.push(...this.retrying('name_twin', now, () => planNameTwins(ctx)));
    for (const league of leagues) {
      const teams = this.teams.get(league.id) ?? [];
      let n = count.get(league.id) ?? 0;
      const more = (): EventPlan[] => {
        const start = randomStart(rng, now + 0.75 * horizonMs, now + horizonMs);
        const pair = pickPair(teams, start, this.calendar, rng);
        if (pair === null) return [];
        const neutralSite = !neutral || rng.chance(neutralSiteShare);
        neutral = true;
        return [this.accept({ league, home: pair[0], away: pair[1], startTime: start, neutralSite, traps: [] })];
      };
      while (n < eventsPerLeague) {
        const plan = this.retrying(league.id, now, more);
        if (plan.length === 0) break;
        plans.push(...plan);
        n++;
      }
    }
    return plans;
  }

  private retrying(key: string, now: number, plan: () => EventPlan[]): EventPlan[] {
    if ((this.retryAt.get(key) ?? -Infinity) > now) return [];
    const plans = plan();
    if (plans.length === 0) this.retryAt.set(key, now + RETRY_MS);
    return plans.map((p) => this.accept(p));
  }

  private inSeasonLeagues(now: number): LeagueDef[] {
    const month = monthOf(now);
    return this.opts.catalog.leagues.filter((l) => inSeason(l, month) && (this.teams.get(l.id)?.length ?? 0) >= 2);
  }

  private trapContext(leagues: readonly LeagueDef[], now: number): TrapContext {
    return { leagues, teams: this.teams, calendar: this.calendar, rng: this.rng, now };
  }

  private accept(plan: EventPlan): EventPlan {
    this.calendar.book(plan.home.id, plan.startTime);
    this.calendar.book(plan.away.id, plan.startTime);
    return plan;
  }
}
