import type { GameState, TierName } from '../../schemas/index.js';
import { gameStateMap } from '../contract/index.js';
import type { Catalog } from '../views/index.js';
import type { EventFilter, GameStateBoard, LiveGameState } from '../views/index.js';
import { requireFeatureOf } from './access.js';
import type { ReplyOf } from '../contract/index.js';

/**
 * Live game states by sport then event id (Enterprise), as `/gamestate` and the get_game_state
 * tool answer them; one sport when `sport` is given (an unknown sport is an empty map).
 */
export function gameStates(board: GameStateBoard, catalog: Catalog, tier: TierName, sport?: string): ReplyOf<'/api/v1/gamestate'> {
  requireFeatureOf(tier, 'gamestate');
  const states = board.list(sport);
  return {
    success: true,
    data: gameStateMap(catalog, states),
    meta: { count: states.length, source: 'live', updated_at: board.lastUpdate === null ? null : new Date(board.lastUpdate).toISOString() },
  };
}

/** What a game-state stream subscriber narrows to: sports, leagues and events (game state is not per book or market). */
export type GameStateFilter = Pick<EventFilter, 'sports' | 'leagues' | 'eventIds'>;

/** Whether a game is one the filter asks for. */
export function gameStateMatches(s: GameState, f: GameStateFilter): boolean {
  if (f.sports && !f.sports.has(s.sport)) return false;
  if (f.leagues && !f.leagues.has(s.league)) return false;
  if (f.eventIds && !f.eventIds.has(s.eventId)) return false;
  return true;
}

/** The live games the filter asks for, by sport then event id (as `/gamestate` orders them). */
export function liveGameStates(board: GameStateBoard, f: GameStateFilter): LiveGameState[] {
  return board.list().filter((s) => gameStateMatches(s, f));
}
