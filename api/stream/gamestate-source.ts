import { presentEndedGameState, presentGameState } from '../contract/index.js';
import { gameStateMatches, liveGameStates } from '../queries/index.js';
import type { GameStateFilter } from '../queries/index.js';
import type { Catalog } from '../views/index.js';
import type { GameStateBoard, GameStateChange } from '../views/index.js';
import { jsonArray } from './frames.js';
import type { FramePayload } from './frames.js';
import type { Group, SourceBatch, StreamSource } from './hub.js';

export const GAMESTATE_CHANNEL = 'gamestate';

/** What a subscriber asked of the game-state channel: sports, leagues and events (game state is not per book or market). */
export interface GameStateSpec {
  event: GameStateFilter;
  /** The one sport asked for, echoed in `gamestate:snapshot`; null for several or all. */
  sport: string | null;
}

interface Item {
  change: GameStateChange;
  json: string;
}

/**
 * The `gamestate` channel (Enterprise): live games from `GameStateBoard`. A new subscriber gets
 * `gamestate:snapshot` (the games `/gamestate` lists, filtered), then `gamestate:update` with one
 * game's full state each time it changes, and `gamestate:removed` when it leaves the live list
 * (final, postponed, cancelled). The last change of each game since the previous flush is what
 * goes out: one frame per game, each in its own sequence slot.
 */
export class GameStateSource implements StreamSource {
  readonly channel = GAMESTATE_CHANNEL;
  private pending = new Map<string, GameStateChange>();

  constructor(
    readonly feed: string,
    private readonly board: GameStateBoard,
    private readonly catalog: Catalog,
    notify: () => void,
  ) {
    board.subscribe((change) => {
      // A game that leaves and comes back in one flush is an update; the map keeps the last.
      this.pending.delete(change.state.eventId);
      this.pending.set(change.state.eventId, change);
      notify();
    });
  }

  discard(): void {
    this.pending = new Map();
  }

  take(): SourceBatch[] {
    if (this.pending.size === 0) return [];
    const items: Item[] = [...this.pending.values()].map((change) => ({ change, json: this.present(change) }));
    this.pending = new Map();
    return [{ slots: items.length, data: items }];
  }

  render(batch: SourceBatch, group: Group): { slot: number; payload: FramePayload }[] {
    const spec = group.spec.channels.get(GAMESTATE_CHANNEL) as GameStateSpec;
    const out: { slot: number; payload: FramePayload }[] = [];
    (batch.data as Item[]).forEach((it, slot) => {
      if (!gameStateMatches(it.change.state, spec.event)) return;
      const name = it.change.type === 'update' ? 'gamestate:update' : 'gamestate:removed';
      out.push({ slot, payload: { name, sse: it.json, ws: `"data":${it.json}` } });
    });
    return out;
  }

  /** The live games a new subscriber starts from, serialized, by sport then event id (as `/gamestate`). */
  snapshot(group: Group): string[] {
    const spec = group.spec.channels.get(GAMESTATE_CHANNEL) as GameStateSpec;
    return liveGameStates(this.board, spec.event).map((s) => JSON.stringify(presentGameState(this.catalog, s)));
  }

  /** `gamestate:snapshot` data: `{sport, events, count}` (the reference's shape, events as a list). */
  static snapshotPayload(sport: string | null, games: readonly string[], resync: boolean): string {
    return `{"sport":${JSON.stringify(sport)},"events":${jsonArray(games)},"count":${games.length},"resync":${resync}}`;
  }

  private present(change: GameStateChange): string {
    if (change.type === 'update') return JSON.stringify(presentGameState(this.catalog, change.state));
    return JSON.stringify(presentEndedGameState(change.state));
  }
}
