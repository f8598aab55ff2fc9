import { isClosedStatus } from '../../schemas/index.js';
import type { GameState } from '../../schemas/index.js';

/** A game the board holds: `apply` keeps only states whose status is live. */
export type LiveGameState = GameState & { status: 'live' };

const isLive = (state: GameState): state is LiveGameState => state.status === 'live';

/** What a game-state listener is told: a live game changed, or left (final, postponed, cancelled). */
export type GameStateChange = { type: 'update'; state: LiveGameState } | { type: 'removed'; state: GameState };

export type GameStateListener = (change: GameStateChange) => void;

/**
 * The live games an API replica serves, kept by the `gamestate` changelog: one state per live
 * event, by sport. A terminal status removes the game (listeners hear `removed` with the final
 * state); the final score stays in ClickHouse (`game_state`). Streams subscribe here.
 */
export class GameStateBoard {
  private readonly bySport = new Map<string, Map<string, LiveGameState>>();
  private readonly sportOf = new Map<string, string>();
  private readonly listeners = new Set<GameStateListener>();
  lastUpdate: number | null = null;

  apply(state: GameState | null, key: string): void {
    if (state === null) {
      const previous = this.get(key);
      if (previous) this.remove(previous);
      return;
    }
    this.lastUpdate = Math.max(this.lastUpdate ?? 0, state.updatedAt);
    if (isClosedStatus(state.status) || !isLive(state)) {
      if (this.sportOf.has(state.eventId)) this.remove(state);
      return;
    }
    let games = this.bySport.get(state.sport);
    if (!games) this.bySport.set(state.sport, (games = new Map()));
    games.set(state.eventId, state);
    this.sportOf.set(state.eventId, state.sport);
    this.emit({ type: 'update', state });
  }

  /** Listens to every change from now on; returns the unsubscribe function. */
  subscribe(listener: GameStateListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get(eventId: string): LiveGameState | undefined {
    const sport = this.sportOf.get(eventId);
    return sport === undefined ? undefined : this.bySport.get(sport)?.get(eventId);
  }

  /** Live games of one sport (case-insensitive), or of every sport, by sport then event id. */
  list(sport?: string): LiveGameState[] {
    const sports = sport === undefined ? [...this.bySport.keys()].sort() : [sport.toLowerCase()];
    const out: LiveGameState[] = [];
    for (const s of sports) {
      const games = this.bySport.get(s);
      if (games) out.push(...[...games.values()].sort((a, b) => (a.eventId < b.eventId ? -1 : 1)));
    }
    return out;
  }

  get size(): number {
    return this.sportOf.size;
  }

  private remove(state: GameState): void {
    const sport = this.sportOf.get(state.eventId);
    if (sport === undefined) return;
    this.bySport.get(sport)?.delete(state.eventId);
    if (this.bySport.get(sport)?.size === 0) this.bySport.delete(sport);
    this.sportOf.delete(state.eventId);
    this.emit({ type: 'removed', state });
  }

  private emit(change: GameStateChange): void {
    for (const l of this.listeners) l(change);
  }
}
