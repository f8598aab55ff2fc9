import type { TierName } from './reference/index.js';

/**
 * Alert rules: what an account asks to be told about, and where. A rule travels on the
 * compacted `accounts` topic beside keys (keyed `alert:<id>`), so every API replica holds every
 * rule; its durable copy is the `alert_rules` table (012_alert_rules.sql).
 */

/**
 * What a rule watches: one of the four opportunity lists, or a line move: a sharp book's main
 * spread or total moving onto, off or across a key number (`key_number`), or reverse line
 * movement in a book's betting splits (`reverse_line_move`).
 */
export const ALERT_KINDS = ['ev', 'arbitrage', 'middles', 'low_hold', 'key_number', 'reverse_line_move'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
export type LineMoveKind = Extract<AlertKind, 'key_number' | 'reverse_line_move'>;

export function isLineMoveKind(kind: AlertKind): kind is LineMoveKind {
  return kind === 'key_number' || kind === 'reverse_line_move';
}

/**
 * A rule's filters, by the query parameter names of the opportunity lists and streams (parsed by
 * the same functions, so a rule matches exactly what the list with those parameters shows).
 */
export interface AlertFilters {
  sport?: string;
  league?: string;
  sportsbook?: string;
  market?: string;
  live?: boolean;
  min_ev?: number;
  min_profit?: number;
  max_odds_age?: number;
  min_confidence?: number;
  /** key_number: the absolute spreads that count as key numbers, instead of the sport's. */
  key_numbers?: number[];
  /** key_number: the totals that count as key numbers, instead of the sport's. */
  key_totals?: number[];
  /** reverse_line_move: which share makes the public side, tickets (`bets`, default) or money (`handle`). */
  public_by?: 'bets' | 'handle';
  /** reverse_line_move: the public side's lowest share, percent (default 55). */
  min_public_pct?: number;
  /** reverse_line_move: the smallest spread or total move, points (default 0.5). */
  min_line_move?: number;
  /** reverse_line_move: the smallest moneyline move, percentage points of implied probability (default 2). */
  min_probability_move?: number;
}

export interface AlertRuleRecord {
  id: string;
  accountId: string;
  /** The key that created the rule; the rule reads the board at its tier. */
  keyId: string;
  tier: TierName;
  name: string | null;
  kind: AlertKind;
  /** `AlertFilters` as JSON text: one field on the wire and in the table whatever filters a kind adds. */
  filtersJson: string;
  webhookUrl: string;
  /**
   * The HMAC key of the rule's signatures. Unlike an API key it must be kept itself (the
   * delivering replica signs with it); it is shown to the caller once, at creation.
   */
  secret: string;
  createdAt: number;
  updatedAt: number;
  /** False once deleted; a deleted rule never comes back. */
  active: boolean;
  deletedAt: number | null;
  version: number;
}

/** How a delivery ended: delivered (2xx), or dead-lettered after the retry budget or a 4xx. */
export type AlertDeliveryOutcome = 'delivered' | 'dead_letter';

/** One alert's delivery to a rule's webhook, as the delivery log keeps it. */
export interface AlertDeliveryRecord {
  ruleId: string;
  accountId: string;
  /** The idempotency key: the same alert always has the same one. */
  alertId: string;
  /** Per rule, increasing in the order alerts were raised. */
  sequence: number;
  outcome: AlertDeliveryOutcome;
  attempts: number;
  /** The last response's status; null when no response came (timeout, refused connection). */
  lastStatus: number | null;
  lastError: string | null;
  raisedAt: number;
  finishedAt: number;
  /** The JSON body that was (or would have been) posted. */
  body: string;
}
