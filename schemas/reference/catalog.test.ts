import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { locateRecording, missingRecordingNote } from '../../scripts/recordings/index.js';
import { LEAGUES } from './leagues.js';
import { foldName } from './names.js';
import { SPORTS } from './sports.js';
import { TEAMS } from './teams/index.js';
import type { TeamDef } from './types.js';

/** Sports whose events are contests of individuals (or of a skip's rink) drawn from a field. */
const INDIVIDUAL_SPORTS = new Set(['tennis', 'mma', 'golf', 'boxing', 'motorsports', 'curling', 'darts', 'snooker', 'table_tennis']);

/**
 * The first catalog: its size and a digest of its `numericalId:id` lines. Appending teams leaves
 * both untouched; inserting, reordering, removing or renaming an id in it changes the digest.
 */
const FIRST_CATALOG_SIZE = 716;
const FIRST_CATALOG_DIGEST = 'd053e4e6e8410ef0778ca3d52f4976035ee6b884828026b4a1750fc183f58fb0';

/** Every spelling a lookup may meet for the team: name, abbreviation and aliases. */
function spellingsOf(team: TeamDef): string[] {
  return [team.name, ...(team.abbreviation === null ? [] : [team.abbreviation]), ...team.aliases];
}

/** league -> folded spelling -> ids of the teams that answer to it. */
function spellingIndex(): Map<string, Map<string, Set<string>>> {
  const index = new Map<string, Map<string, Set<string>>>();
  for (const team of TEAMS) {
    for (const league of team.leagues) {
      const byKey = index.get(league) ?? new Map<string, Set<string>>();
      index.set(league, byKey);
      for (const spelling of spellingsOf(team)) {
        const key = foldName(spelling);
        const ids = byKey.get(key) ?? new Set<string>();
        ids.add(team.id);
        byKey.set(key, ids);
      }
    }
  }
  return index;
}

const INDEX = spellingIndex();

function lookup(league: string, spelling: string): string[] {
  return [...(INDEX.get(league)?.get(foldName(spelling)) ?? [])];
}

function teamsIn(league: string): TeamDef[] {
  return TEAMS.filter((team) => team.leagues.includes(league));
}

describe('team catalog', () => {
  it('numbers teams densely from 1 in catalog order, without duplicates', () => {
    const numbers = TEAMS.map((team) => team.numericalId);
    expect(numbers).toEqual(TEAMS.map((_, index) => index + 1));
    expect(new Set(numbers).size).toBe(TEAMS.length);
  });

  it('keeps the numbering of the first catalog when teams are appended', () => {
    const first = TEAMS.slice(0, FIRST_CATALOG_SIZE);
    const digest = createHash('sha256')
      .update(first.map((team) => `${team.numericalId}:${team.id}`).join('\n'))
      .digest('hex');
    expect(TEAMS.length).toBeGreaterThanOrEqual(FIRST_CATALOG_SIZE);
    expect(digest, 'numericalIds of existing teams moved: append new teams to APPENDED in teams/index.ts').toBe(FIRST_CATALOG_DIGEST);
  });

  it('gives every team a unique slug id', () => {
    const ids = TEAMS.map((team) => team.id);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it('puts every team in existing leagues of its own sport', () => {
    const sports = new Set(SPORTS.map((sport) => sport.id));
    const sportOfLeague = new Map(LEAGUES.map((league) => [league.id, league.sport]));
    for (const team of TEAMS) {
      expect(sports.has(team.sport), `${team.id}: sport ${team.sport}`).toBe(true);
      expect(team.leagues.length, `${team.id}: no league`).toBeGreaterThan(0);
      for (const league of team.leagues) {
        expect(sportOfLeague.get(league), `${team.id}: league ${league}`).toBe(team.sport);
      }
    }
  });

  it('gives every league enough teams to pair (8 for fields of individuals)', () => {
    for (const league of LEAGUES) {
      const minimum = INDIVIDUAL_SPORTS.has(league.sport) ? 8 : 2;
      expect(teamsIn(league.id).length, league.id).toBeGreaterThanOrEqual(minimum);
    }
  });

  it('holds the full rosters of the major leagues', () => {
    const counts = Object.fromEntries(LEAGUES.map((league) => [league.id, teamsIn(league.id).length]));
    expect(counts).toMatchObject({
      nfl: 32,
      nba: 30,
      nhl: 32,
      mlb: 30,
      epl: 20,
      la_liga: 20,
      serie_a: 20,
      bundesliga: 18,
      mls: 30,
      fifa_world_cup: 48,
    });
    expect(counts['wnba']).toBeGreaterThanOrEqual(13);
    expect(counts['ncaaf']).toBeGreaterThanOrEqual(40);
    expect(counts['ncaab']).toBeGreaterThanOrEqual(30);
  });

  it('has non-empty names, abbreviations and aliases, none repeating the name', () => {
    for (const team of TEAMS) {
      expect(team.name.trim(), team.id).not.toBe('');
      if (team.abbreviation !== null) expect(foldName(team.abbreviation), team.id).not.toBe('');
      for (const alias of team.aliases) {
        expect(foldName(alias), `${team.id}: alias "${alias}"`).not.toBe('');
        expect(foldName(alias), `${team.id}: alias "${alias}"`).not.toBe(foldName(team.name));
      }
    }
  });

  it('never lets one folded name, abbreviation or alias point to two teams of a league', () => {
    const collisions: string[] = [];
    for (const [league, byKey] of INDEX) {
      for (const [key, ids] of byKey) {
        if (ids.size > 1) collisions.push(`${league}: "${key}" -> ${[...ids].join(', ')}`);
      }
    }
    expect(collisions).toEqual([]);
  });
});

describe('college spellings', () => {
  it('resolves "Washington" to the Huskies and "Washington State" to the Cougars', () => {
    for (const league of ['ncaaf', 'ncaab']) {
      const huskies = `${league}-washington-huskies`;
      const cougars = `${league}-washington-state-cougars`;
      expect(lookup(league, 'Washington')).toEqual([huskies]);
      expect(lookup(league, 'Washington Huskies')).toEqual([huskies]);
      expect(lookup(league, 'Washington State')).toEqual([cougars]);
      expect(lookup(league, 'Washington St.')).toEqual([cougars]);
      expect(lookup(league, 'Washington St')).toEqual([cougars]);
      expect(lookup(league, 'Washington State Cougars')).toEqual([cougars]);
    }
  });

  it('keeps each school and its "State" apart', () => {
    const pairs: [string, string, string, string][] = [
      ['Oregon', 'ncaaf-oregon-ducks', 'Oregon St.', 'ncaaf-oregon-state-beavers'],
      ['Michigan', 'ncaaf-michigan-wolverines', 'Michigan State', 'ncaaf-michigan-state-spartans'],
      ['Florida', 'ncaaf-florida-gators', 'Florida St', 'ncaaf-florida-state-seminoles'],
      ['Mississippi', 'ncaaf-ole-miss-rebels', 'Mississippi State', 'ncaaf-mississippi-state-bulldogs'],
      ['Miami', 'ncaaf-miami-hurricanes', 'Miami (OH)', 'ncaaf-miami-oh-redhawks'],
    ];
    for (const [school, schoolId, other, otherId] of pairs) {
      expect(lookup('ncaaf', school), school).toEqual([schoolId]);
      expect(lookup('ncaaf', other), other).toEqual([otherId]);
    }
  });

  it('gives no team a nickname that several schools share', () => {
    for (const league of ['ncaaf', 'ncaab']) {
      for (const nickname of ['Tigers', 'Bulldogs', 'Wildcats', 'Cougars', 'Huskies', 'Spartans', 'Aggies', 'Rebels', 'Cardinals']) {
        expect(lookup(league, nickname), `${league}: ${nickname}`).toEqual([]);
      }
    }
  });
});

function recordedTeamNames(path: string): Set<string> {
  const names = new Set<string>();
  for (const line of gunzipSync(readFileSync(path)).toString('utf8').split('\n')) {
    if (line.trim() === '') continue;
    const snapshot = JSON.parse(line) as { data: { home_team: string; away_team: string }[] };
    for (const event of snapshot.data) {
      names.add(event.home_team);
      names.add(event.away_team);
    }
  }
  return names;
}

describe('recorded Odds API names', () => {
  const recordings: [string, string][] = [
    ['nfl', 'theoddsapi_v4_nfl_2025wk10_snapshots.jsonl.gz'],
    ['fifa_world_cup', 'theoddsapi_v4_fifa_wc2026_snapshots.jsonl.gz'],
  ];
  for (const [league, file] of recordings) {
    const path = locateRecording(file);
    if (path === null) console.warn(`skipping the ${league} recording check: ${missingRecordingNote(file)}`);
    it.skipIf(path === null)(`lists every ${league} team name of ${file} exactly`, () => {
      const catalogNames = new Set(teamsIn(league).map((team) => team.name));
      const recorded = [...recordedTeamNames(path ?? '')];
      expect(recorded.length).toBeGreaterThan(0);
      expect(recorded.filter((name) => !catalogNames.has(name))).toEqual([]);
    });
  }
});
