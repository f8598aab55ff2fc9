import type { MarketId, SelectionType } from '../../schemas/index.js';

/** A finished match of a history file: who played, when, and the final score. */
export interface HistoricalMatch {
  /** Where the file came from (its format), part of every row's identity. */
  source: string;
  /** Deterministic from the file's own facts, so importing twice names the same match. */
  matchId: string;
  league: string;
  /** Epoch ms, UTC. */
  kickoff: number;
  homeTeam: string;
  awayTeam: string;
  homeGoals: number;
  awayGoals: number;
}

export type PricePhase = 'opening' | 'closing';

/** One book's decimal price for one outcome, as the market opened or closed. */
export interface HistoricalPrice {
  source: string;
  matchId: string;
  book: string;
  market: MarketId;
  selection: SelectionType;
  /** The handicap of the selection (point_spread) or the total (total_points); null for 1X2. */
  line: number | null;
  phase: PricePhase;
  decimal: number;
}

/** A cell that could not be read: the file's line number (header = 1) and the column. */
export interface HistoryProblem {
  line: number;
  field: string;
  reason: string;
}

export interface ParsedHistory {
  matches: HistoricalMatch[];
  prices: HistoricalPrice[];
  problems: HistoryProblem[];
}

/** One format of history file: more formats are more implementations of this port. */
export interface HistoryFormat {
  name: string;
  parse(text: string): ParsedHistory;
}
