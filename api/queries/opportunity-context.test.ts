import { describe, expect, it } from 'vitest';
import type { GameState, Opportunity } from '../../schemas/index.js';
import { GameStateBoard } from '../views/gamestate-board.js';
import { OpportunityBoard } from '../views/opportunity-board.js';
import { opportunityContext } from './opportunity-context.js';

const event = { sport: 'basketball', league: 'nba', homeTeamId: 'h', awayTeamId: 'a', startTime: 0, isLive: true };
const leg = (book: string, selection: string, line: number | null) => ({ book, selection, line });

/** The fields the context reads, on an otherwise bare record. */
function opportunity(kind: Opportunity['kind'], id: string, fields: object): Opportunity {
  return {
    id,
    kind,
    eventId: 'e1',
    situation: id,
    market: 'point_spread',
    participant: null,
    statCategory: null,
    event,
    legs: [],
    lastSeenAt: 1,
    expiredAt: null,
    ...fields,
  } as unknown as Opportunity;
}

const ev = (id: string, selection: string, line: number, value: number): Opportunity =>
  opportunity('ev', id, { selection, line, value, legs: [leg('caesars', selection, line)] });

describe('what arbitrage and low-hold rows show from the other boards', () => {
  const board = new OpportunityBoard();
  board.apply('ev1', ev('ev1', 'away', 4.5, 1.2));
  board.apply('ev2', ev('ev2', 'away', 4.5, 3.4));
  board.apply('ev3', ev('ev3', 'home', -4.5, 2.1));
  board.apply('ev4', ev('ev4', 'home', -3.5, 9.9));
  const arb = opportunity('arbitrage', 'a1', { legs: [leg('fanduel', 'home', -4.5), leg('betmgm', 'away', 4.5)] });

  it('finds the best +EV on any leg of the same market at the same line, not on another line', () => {
    expect(opportunityContext(board, undefined).evOf?.(arb)).toBe(3.4);
  });

  it('finds none on a market without +EV, and sees a +EV that came after the first answer', () => {
    const other = opportunity('arbitrage', 'a2', { legs: [leg('fanduel', 'home', -7.5), leg('betmgm', 'away', 7.5)] });
    const context = opportunityContext(board, undefined);
    expect(context.evOf?.(other)).toBeNull();
    board.apply('ev5', ev('ev5', 'away', 7.5, 0.7));
    expect(context.evOf?.(other)).toBe(0.7);
  });

  it('hands over the live game of the event, and nothing for a game not live', () => {
    const games = new GameStateBoard();
    const state = { eventId: 'e1', sport: 'basketball', league: 'nba', status: 'live', homeScore: 50, awayScore: 48 } as GameState;
    games.apply({ ...state, homeTeamId: 'h', awayTeamId: 'a', period: 'Q3', clock: '04:12' } as GameState, 'e1');
    const context = opportunityContext(board, games);
    expect(context.gameOf?.('e1')).toMatchObject({ period: 'Q3', clock: '04:12', homeScore: 50, awayScore: 48 });
    expect(context.gameOf?.('e2')).toBeUndefined();
  });
});
