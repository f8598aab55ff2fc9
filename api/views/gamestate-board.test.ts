import { describe, expect, it } from 'vitest';
import type { GameState } from '../../schemas/index.js';
import { GameStateBoard } from './gamestate-board.js';
import type { GameStateChange } from './gamestate-board.js';

const game = (eventId: string, sport: string, over: Partial<GameState> = {}): GameState => ({
  eventId,
  sport,
  league: sport === 'hockey' ? 'nhl' : 'nba',
  homeTeamId: 'h',
  awayTeamId: 'a',
  status: 'live',
  homeScore: 0,
  awayScore: 0,
  period: 'P1',
  clock: '20:00',
  possession: null,
  server: null,
  lastPlay: null,
  extras: {},
  primaryBook: 'pinnacle',
  bookCount: 3,
  updatedAt: 1,
  ...over,
});

describe('GameStateBoard', () => {
  it('keeps live games by sport, tells listeners of updates and removes finished games', () => {
    const board = new GameStateBoard();
    const heard: string[] = [];
    board.subscribe((c: GameStateChange) => heard.push(`${c.type}:${c.state.eventId}:${c.state.status}`));
    board.apply(game('b', 'hockey'), 'b');
    board.apply(game('a', 'hockey', { homeScore: 1, updatedAt: 5 }), 'a');
    board.apply(game('c', 'basketball'), 'c');
    expect(board.list('HOCKEY').map((g) => g.eventId)).toEqual(['a', 'b']);
    expect(board.list().map((g) => g.eventId)).toEqual(['c', 'a', 'b']);
    board.apply(game('a', 'hockey', { status: 'final', homeScore: 3 }), 'a');
    expect(board.list('hockey').map((g) => g.eventId)).toEqual(['b']);
    expect(board.list('curling')).toEqual([]);
    expect(heard).toEqual(['update:b:live', 'update:a:live', 'update:c:live', 'removed:a:final']);
    expect(board.lastUpdate).toBe(5);
  });
});
