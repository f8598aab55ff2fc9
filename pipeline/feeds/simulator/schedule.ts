import type { LeagueDef, TeamDef } from '../../../schemas/index.js';
import type { MatcherTrap } from './board.js';
import type { Prng } from './prng.js';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** A team plays at most once in this window, doubleheaders apart. */
export const SLOT_MS = 8 * HOUR;

/** What the scheduler decides; the simulator turns a plan into an event with listings. */
export interface EventPlan {
  league: LeagueDef;
  home: TeamDef;
  away: TeamDef;
  startTime: number;
  neutralSite: boolean;
  traps: MatcherTrap[];
}

/** Month (1-12, UTC) of an epoch-ms time. */
export function monthOf(ms: number): number {
  return new Date(ms).getUTCMonth() + 1;
}

/** Seasons may wrap the year end (from 10 to 6 is October to June). */
export function inSeason(league: LeagueDef, month: number): boolean {
  const { from, to } = league.season;
  return from <= to ? month >= from && month <= to : month >= from || month <= to;
}

const DURATION_HOURS: Readonly<Record<string, number>> = {
  basketball: 2.4,
  football: 3.3,
  hockey: 2.6,
  baseball: 3,
  soccer: 1.9,
  tennis: 2,
  mma: 1,
  golf: 4.5,
  boxing: 1,
  cricket: 7,
  rugby: 1.75,
  rugby_league: 1.7,
  lacrosse: 2,
  motorsports: 2,
  curling: 2.5,
  darts: 1,
  snooker: 3,
  table_tennis: 0.75,
  esports: 2,
};

/** Wall-clock length of a game of the league's sport, kickoff to final whistle. */
export function durationMs(league: LeagueDef): number {
  return (DURATION_HOURS[league.sport] ?? 2) * HOUR;
}

/** Games start on five-minute marks (19:05, 19:35), and rarely on the hour. */
export function quantizeStart(ms: number): number {
  return Math.floor(ms / (5 * MINUTE)) * 5 * MINUTE;
}

export function teamsByLeague(teams: readonly TeamDef[], leagues: readonly LeagueDef[]): Map<string, TeamDef[]> {
  const byLeague = new Map<string, TeamDef[]>(leagues.map((l) => [l.id, []]));
  for (const team of teams) {
    for (const id of team.leagues) byLeague.get(id)?.push(team);
  }
  return byLeague;
}

/** Which team plays when, so that no team plays two games at once. */
export class TeamCalendar {
  private readonly starts = new Map<string, number[]>();

  isFree(teamId: string, start: number): boolean {
    const list = this.starts.get(teamId);
    if (list === undefined) return true;
    for (const s of list) if (Math.abs(s - start) < SLOT_MS) return false;
    return true;
  }

  book(teamId: string, start: number): void {
    const list = this.starts.get(teamId);
    if (list === undefined) this.starts.set(teamId, [start]);
    else list.push(start);
  }

  release(teamId: string, start: number): void {
    const list = this.starts.get(teamId);
    if (list === undefined) return;
    const i = list.indexOf(start);
    if (i >= 0) list.splice(i, 1);
    if (list.length === 0) this.starts.delete(teamId);
  }
}

/** Two distinct teams both free at `start`, or null after a bounded number of tries. */
export function pickPair(
  teams: readonly TeamDef[],
  start: number,
  calendar: TeamCalendar,
  rng: Prng,
  exclude: readonly TeamDef[] = [],
): [TeamDef, TeamDef] | null {
  const free = teams.filter((t) => !exclude.includes(t) && calendar.isFree(t.id, start));
  if (free.length < 2) return null;
  const i = rng.int(free.length);
  let j = rng.int(free.length - 1);
  if (j >= i) j++;
  const home = free[i];
  const away = free[j];
  return home === undefined || away === undefined ? null : [home, away];
}

/** Random start within [from, to), on a five-minute mark. */
export function randomStart(rng: Prng, from: number, to: number): number {
  return quantizeStart(rng.range(from, to));
}
