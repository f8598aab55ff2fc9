import type { EventStatus } from './events.js';

/**
 * Live game state: score, period, clock and who has the ball (or serves). Feeds that know it
 * (the simulator; a real scores feed later) send it in the book's vocabulary on
 * `gamestate.raw`; the normalizer resolves the listing to the canonical event and publishes
 * `GameState` on `gamestate` (compacted by event id; a tombstone once the event has left the
 * board). Recordings of odds (The Odds API replays) carry no game state.
 */

export type Side = 'home' | 'away';

/** Sport-specific extras, all optional (COMPAT §8 names them). */
export interface GameStateExtras {
  /** Soccer. */
  corners?: [number, number];
  yellowCards?: [number, number];
  redCards?: [number, number];
  /** Soccer and basketball. */
  fouls?: [number, number];
  /** Tennis: sets won by each player. */
  sets?: [number, number];
  /** Hockey: the side on the power play. */
  powerPlay?: Side | null;
  /** Baseball. */
  outs?: number;
  /** Cricket: wickets each side has lost batting, and the overs it has faced ("19.4": 19 overs and 4 balls), all innings together. */
  wickets?: [number, number];
  overs?: [string, string];
}

/** How a game stands: what every game-state record carries, raw or canonical. */
export interface Scoreboard {
  status: EventStatus;
  homeScore: number;
  awayScore: number;
  /** e.g. Q3, 2H, P2, S2, T5, FT; null before the start. */
  period: string | null;
  /** Game clock as shown (mm:ss), null where the sport has none. */
  clock: string | null;
  possession: Side | null;
  /** Tennis: who serves. */
  server: Side | null;
  lastPlay: string | null;
  extras: GameStateExtras;
}

/** One book's view of a game's state, as a feed reports it (keyed like raw ticks). */
export interface RawGameState extends Scoreboard {
  kind: 'gamestate';
  /** The book whose listing identifies the game. */
  book: string;
  bookEventId: string;
  sport: string;
  league: string;
  /** Teams as this book spells them; `homeScore` is the score of `homeTeam`. */
  homeTeam: string;
  awayTeam: string;
  /** When the state was observed, epoch ms. */
  ts: number;
}

/** A game's state on the canonical event (topic `gamestate`, keyed by event id). */
export interface GameState extends Scoreboard {
  eventId: string;
  sport: string;
  league: string;
  homeTeamId: string;
  awayTeamId: string;
  /** The book whose feed reported this state, and how many books list the event. */
  primaryBook: string;
  bookCount: number;
  updatedAt: number;
}
