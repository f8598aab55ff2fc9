import { type LeagueDef, type TeamDef, foldName } from '../../../schemas/index.js';
import type { Prng } from './prng.js';
import { DAY, type EventPlan, HOUR, MINUTE, type TeamCalendar, pickPair, quantizeStart } from './schedule.js';

/**
 * Plans for the events that trip real event matchers. Each planner prefers the league where the
 * case is real (doubleheaders in MLB, Washington / Washington State in college football) and
 * falls back to any in-season league that can host it.
 */
export interface TrapContext {
  /** In-season leagues, catalog order. */
  leagues: readonly LeagueDef[];
  teams: ReadonlyMap<string, readonly TeamDef[]>;
  calendar: TeamCalendar;
  rng: Prng;
  now: number;
}

const DOUBLEHEADER_LEAGUES = ['mlb', 'nhl', 'nba', 'wnba', 'ncaab', 'nfl'];
const TWIN_LEAGUES = ['ncaaf', 'ncaab'];

function preferred(leagues: readonly LeagueDef[], ids: readonly string[]): LeagueDef[] {
  const rank = (l: LeagueDef): number => {
    const i = ids.indexOf(l.id);
    return i < 0 ? ids.length : i;
  };
  return [...leagues].sort((a, b) => rank(a) - rank(b));
}

/** Start of the first UTC day whose afternoon is still at least two hours ahead. */
function nextGameDay(now: number, hourOfDay: number): number {
  const day = Math.floor(now / DAY) * DAY;
  return day + hourOfDay * HOUR < now + 2 * HOUR ? day + DAY : day;
}

/** The same two teams twice on one day, 3 to 6 hours apart, home team unchanged. */
export function planDoubleheader(ctx: TrapContext): EventPlan[] {
  const { rng, calendar } = ctx;
  for (const league of preferred(ctx.leagues, DOUBLEHEADER_LEAGUES)) {
    const teams = ctx.teams.get(league.id) ?? [];
    if (teams.length < 2) continue;
    const first = nextGameDay(ctx.now, 16) + 16 * HOUR + 5 * MINUTE * rng.int(12);
    const second = quantizeStart(first + rng.range(3 * HOUR, 6 * HOUR));
    for (let attempt = 0; attempt < 8; attempt++) {
      const pair = pickPair(teams, first, calendar, rng);
      if (pair === null) break;
      const [home, away] = pair;
      if (!calendar.isFree(home.id, second) || !calendar.isFree(away.id, second)) continue;
      const plan = (startTime: number): EventPlan => ({
        league,
        home,
        away,
        startTime,
        neutralSite: false,
        traps: ['doubleheader'],
      });
      return [plan(first), plan(second)];
    }
  }
  return [];
}

/**
 * Two teams of one league where a spelling of one is a word prefix of a spelling of the other
 * ("Washington" / "Washington State"); the shorter-named team first. Without such a pair, two
 * teams whose names share their first word ("Los Angeles Lakers" / "Los Angeles Clippers").
 */
export function findNameTwins(teams: readonly TeamDef[]): [TeamDef, TeamDef] | null {
  const owner = new Map<string, TeamDef>();
  const spellings = (t: TeamDef): string[] => [t.name, ...t.aliases].map(foldName);
  for (const t of teams) for (const s of spellings(t)) if (!owner.has(s)) owner.set(s, t);
  let found: [TeamDef, TeamDef] | null = null;
  for (const long of teams) {
    for (const s of spellings(long)) {
      const words = s.split(' ');
      for (let k = 1; k < words.length; k++) {
        const prefix = words.slice(0, k).join(' ');
        const short = owner.get(prefix);
        if (short === undefined || short === long) continue;
        if (prefix === 'washington') return [short, long];
        found ??= [short, long];
      }
    }
  }
  if (found !== null) return found;
  const byFirstWord = new Map<string, TeamDef>();
  for (const t of teams) {
    const first = foldName(t.name).split(' ')[0] ?? '';
    const other = byFirstWord.get(first);
    if (other !== undefined && first.length > 1) return [other, t];
    byFirstWord.set(first, t);
  }
  return null;
}

/** The two look-alike teams playing on the same day at nearly the same time, each against its own opponent. */
export function planNameTwins(ctx: TrapContext): EventPlan[] {
  const { rng, calendar } = ctx;
  for (const league of preferred(ctx.leagues, TWIN_LEAGUES)) {
    const teams = ctx.teams.get(league.id) ?? [];
    if (teams.length < 4) continue;
    const twins = findNameTwins(teams);
    if (twins === null) continue;
    const first = nextGameDay(ctx.now, 19) + DAY + 19 * HOUR + 5 * MINUTE * rng.int(6);
    const second = first + 5 * MINUTE * (1 + rng.int(6));
    const [a, b] = twins;
    if (!calendar.isFree(a.id, first) || !calendar.isFree(b.id, second)) continue;
    const opponents = pickPair(teams, first, calendar, rng, twins);
    if (opponents === null) continue;
    const [oa, ob] = opponents;
    if (!calendar.isFree(ob.id, second)) continue;
    const plan = (twin: TeamDef, opponent: TeamDef, startTime: number): EventPlan => {
      const twinAtHome = rng.chance(0.5);
      return {
        league,
        home: twinAtHome ? twin : opponent,
        away: twinAtHome ? opponent : twin,
        startTime,
        neutralSite: false,
        traps: ['name_twin'],
      };
    };
    return [plan(a, oa, first), plan(b, ob, second)];
  }
  return [];
}
