import { describe, expect, it } from 'vitest';
import { LEAGUES, TEAMS } from '../../../schemas/index.js';
import type { RawGameState } from '../../../schemas/index.js';
import { ManualClock } from '../../clock.js';
import { MarketSimulator } from './simulator.js';

const T0 = Date.UTC(2025, 10, 9, 16, 0, 0);
const league = (id: string): typeof LEAGUES => LEAGUES.filter((l) => l.id === id);

function play(
  id: string,
  options: { postponedShare?: number; hours?: number } = {},
): { sim: MarketSimulator; states: RawGameState[]; clock: ManualClock } {
  const clock = new ManualClock(T0);
  const sim = new MarketSimulator({
    seed: 11,
    clock,
    catalog: { teams: TEAMS, leagues: league(id) },
    eventsPerLeague: 4,
    horizonMs: 3_600_000,
    liveShare: 0,
    postponedShare: options.postponedShare ?? 0,
  });
  const kickoff = Math.min(...sim.trueEvents().map((e) => e.startTime));
  clock.set(kickoff - 60_000);
  sim.step(clock.now(), 0);
  const states: RawGameState[] = [];
  for (let t = 0; t < (options.hours ?? 9) * 60; t++) {
    clock.advance(60_000);
    sim.step(clock.now(), 200);
    states.push(...sim.takeGameStates());
  }
  return { sim, states, clock };
}

describe('games played out by the simulator', () => {
  it('plays every game from kickoff to final: scores only rise, quarters run Q1 to Q4 with a clock, possession while live', () => {
    const { states } = play('nba');
    const byGame = new Map<string, RawGameState[]>();
    for (const s of states) byGame.set(s.bookEventId, [...(byGame.get(s.bookEventId) ?? []), s]);
    expect(byGame.size).toBeGreaterThanOrEqual(4);
    let finished = 0;
    for (const [id, list] of byGame) {
      const first = list[0];
      const last = list[list.length - 1];
      if (last?.status !== 'final') continue; // games listed later may still be on
      finished++;
      expect([id, first?.status, first?.period, first?.homeScore, first?.awayScore]).toEqual([id, 'live', 'Q1', 0, 0]);
      expect(last.period).toBe('FT');
      expect(last.homeScore + last.awayScore).toBeGreaterThan(150);
      expect(last.homeScore).not.toBe(last.awayScore);
      for (let i = 1; i < list.length; i++) {
        expect(list[i]?.homeScore ?? 0).toBeGreaterThanOrEqual(list[i - 1]?.homeScore ?? 0);
        expect(list[i]?.ts ?? 0).toBeGreaterThanOrEqual(list[i - 1]?.ts ?? 0);
      }
      const live = list.filter((s) => s.status === 'live');
      expect(new Set(live.map((s) => s.period))).toEqual(new Set(['Q1', 'Q2', 'Q3', 'Q4']));
      expect(live.every((s) => /^\d\d:\d\d$/.test(s.clock ?? '') && (s.possession === 'home' || s.possession === 'away'))).toBe(true);
    }
    expect(finished).toBeGreaterThanOrEqual(4);
  });

  it('is deterministic: the same seed plays the same games', () => {
    const a = play('nhl', { hours: 5 }).states.map((s) => `${s.bookEventId}|${s.status}|${s.homeScore}-${s.awayScore}|${s.period}`);
    const b = play('nhl', { hours: 5 }).states.map((s) => `${s.bookEventId}|${s.status}|${s.homeScore}-${s.awayScore}|${s.period}`);
    expect(a.length).toBeGreaterThan(20);
    expect(a).toEqual(b);
  });

  it('postpones games at their start when asked to, pulling their prices and reporting postponed', () => {
    const { sim, states } = play('nhl', { postponedShare: 1, hours: 2 });
    const postponed = states.filter((s) => s.status === 'postponed');
    expect(postponed.length).toBeGreaterThan(0);
    expect(states.every((s) => s.status === 'postponed')).toBe(true);
    expect(sim.trueEvents({ includeEnded: true }).filter((e) => e.status === 'postponed').length).toBe(postponed.length);
  });
});
