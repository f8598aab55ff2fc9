import type { LeagueDef, TeamDef } from '../../../schemas/index.js';
import { hashString } from './prng.js';

/**
 * Synthetic rosters for player props. Names are made up from small pools, stable per team, so
 * that a player keeps his name (and the book's prop) from one game of his team to the next.
 */
const FIRST = [
  'Marcus',
  'Jalen',
  'Tyler',
  'Devin',
  'Andre',
  'Caleb',
  'Isaiah',
  'Jordan',
  'Malik',
  'Trey',
  'Darius',
  'Evan',
  'Logan',
  'Nico',
  'Owen',
  'Luka',
  'Mateo',
  'Jonas',
  'Kyle',
  'Derek',
  'Xavier',
  'Brandon',
  'Cole',
  'Miles',
  'Quentin',
  'Rashad',
  'Victor',
  'Zach',
  'Hugo',
  'Ivan',
] as const;
const LAST = [
  'Whitfield',
  'Okafor',
  'Brennan',
  'Castillo',
  'Holloway',
  'Kowalski',
  'Lindqvist',
  'Mercer',
  'Nakamura',
  'Oduya',
  'Pryor',
  'Quinlan',
  'Ramsey',
  'Santos',
  'Thibault',
  'Underwood',
  'Vance',
  'Whitaker',
  'Yilmaz',
  'Zeller',
  'Abernathy',
  'Beaumont',
  'Calloway',
  'Dunleavy',
  'Ellison',
  'Fairchild',
  'Galloway',
  'Hargrove',
  'Ingram',
  'Jessup',
] as const;

export const PLAYERS_PER_TEAM = 3;
/** Stats each player carries at most; keeps the prop count per event in the tens, as books do. */
const STATS_PER_PLAYER = 2;

/** Typical per-game mean range and coefficient of variation of a stat, by sport. */
interface StatShape {
  min: number;
  max: number;
  cv: number;
}

const STAT_SHAPES: Readonly<Record<string, StatShape>> = {
  'basketball:points': { min: 8, max: 30, cv: 0.25 },
  'basketball:rebounds': { min: 3, max: 12, cv: 0.35 },
  'basketball:assists': { min: 2, max: 10, cv: 0.4 },
  'basketball:threes': { min: 0.8, max: 4, cv: 0.6 },
  'football:passing_yards': { min: 190, max: 290, cv: 0.22 },
  'football:rushing_yards': { min: 35, max: 95, cv: 0.4 },
  'football:receiving_yards': { min: 35, max: 90, cv: 0.45 },
  'football:receptions': { min: 2.5, max: 7.5, cv: 0.4 },
  'hockey:shots_on_goal': { min: 1.5, max: 4.2, cv: 0.5 },
  'hockey:points': { min: 0.4, max: 1.2, cv: 0.9 },
  'baseball:strikeouts': { min: 3.5, max: 8.5, cv: 0.3 },
  'baseball:hits': { min: 0.6, max: 1.4, cv: 0.8 },
  'baseball:total_bases': { min: 1.2, max: 2.2, cv: 0.8 },
};
const DEFAULT_SHAPE: StatShape = { min: 1, max: 10, cv: 0.4 };

export function statShape(sport: string, stat: string): StatShape {
  return STAT_SHAPES[`${sport}:${stat}`] ?? DEFAULT_SHAPE;
}

export interface RosterProp {
  player: string;
  stat: string;
  /** The player's season mean for the stat, before the game's own conditions. */
  baseMean: number;
  cv: number;
}

/** A team's prop board: its players and the stats books offer on each. */
export function rosterProps(team: TeamDef, league: LeagueDef): RosterProp[] {
  const stats = league.propStats;
  if (stats.length === 0) return [];
  const out: RosterProp[] = [];
  const used = new Set<string>();
  for (let i = 0; i < PLAYERS_PER_TEAM; i++) {
    const player = uniqueName(team.id, i, used);
    const first = hashString(`${team.id}/${i}/stat`) % stats.length;
    const n = Math.min(STATS_PER_PLAYER, stats.length);
    for (let k = 0; k < n; k++) {
      const stat = stats[(first + k) % stats.length];
      if (stat === undefined) continue;
      const shape = statShape(league.sport, stat);
      const u = hashString(`${team.id}/${i}/${stat}`) / 4294967296;
      out.push({ player, stat, baseMean: shape.min + (shape.max - shape.min) * u, cv: shape.cv });
    }
  }
  return out;
}

function uniqueName(teamId: string, i: number, used: Set<string>): string {
  const h = hashString(`${teamId}/${i}`);
  for (let k = 0; ; k++) {
    const first = FIRST[(h + k) % FIRST.length] ?? 'Alex';
    const last = LAST[(Math.floor(h / FIRST.length) + 7 * k) % LAST.length] ?? 'Smith';
    const name = `${first} ${last}`;
    if (!used.has(name)) {
      used.add(name);
      return name;
    }
  }
}
