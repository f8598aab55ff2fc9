import { describe, expect, it } from 'vitest';
import { LEAGUES, type LeagueDef } from '../../../schemas/index.js';
import { Prng } from './prng.js';
import { HOUR, TeamCalendar, inSeason, monthOf, pickPair, quantizeStart } from './schedule.js';
import { syntheticTeams } from './synthetic-catalog.js';

const nba = LEAGUES.find((l) => l.id === 'nba') as LeagueDef;

describe('seasons', () => {
  it('handles seasons that wrap the year end', () => {
    expect([1, 6, 7, 9, 10, 12].map((m) => inSeason(nba, m))).toEqual([true, true, false, false, true, true]);
    const mlb = { ...nba, season: { from: 3, to: 10 } };
    expect([2, 3, 10, 11].map((m) => inSeason(mlb, m))).toEqual([false, true, true, false]);
    expect(monthOf(Date.UTC(2026, 10, 30, 23, 59))).toBe(11);
  });
});

describe('TeamCalendar', () => {
  it('never gives a team two games within eight hours', () => {
    const teams = syntheticTeams([nba], 4);
    const calendar = new TeamCalendar();
    const rng = new Prng(1);
    const start = Date.UTC(2026, 10, 21, 19);
    const first = pickPair(teams, start, calendar, rng);
    expect(first).not.toBeNull();
    for (const t of first ?? []) calendar.book(t.id, start);
    const second = pickPair(teams, start + HOUR, calendar, rng);
    expect(second?.filter((t) => first?.includes(t))).toEqual([]);
    for (const t of second ?? []) calendar.book(t.id, start + HOUR);
    expect(pickPair(teams, start + 2 * HOUR, calendar, rng)).toBeNull();
    expect(pickPair(teams, start + 9 * HOUR, calendar, rng)).not.toBeNull();
    calendar.release(teams[0]?.id ?? '', start);
  });

  it('starts games on five-minute marks', () => {
    expect(quantizeStart(Date.UTC(2026, 0, 1, 19, 7, 31))).toBe(Date.UTC(2026, 0, 1, 19, 5));
  });
});
