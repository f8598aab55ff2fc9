import type { TierName } from '../../schemas/index.js';
import { gameStateMap } from '../contract/index.js';
import type { Catalog } from '../views/index.js';
import type { GameStateBoard } from '../views/index.js';
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
