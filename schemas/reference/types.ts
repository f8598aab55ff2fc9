import type { MarketId } from '../markets.js';

export const REGIONS = ['US', 'UK', 'EU', 'AU', 'GLOBAL'] as const;
export type Region = (typeof REGIONS)[number];

export const TIER_NAMES = ['free', 'hobby', 'pro', 'sharp', 'enterprise'] as const;
export type TierName = (typeof TIER_NAMES)[number];

export interface SportDef {
  id: string;
  /** Frozen, dense from 1, never reused: append new sports at the end. */
  numericalId: number;
  name: string;
}

export interface LeagueDef {
  id: string;
  numericalId: number;
  name: string;
  sport: string;
  /** ISO 3166-1 alpha-2 code of the league's country; null for international competitions. */
  country?: string | null;
  /**
   * Months (1-12) in which the league plays; a league outside its season lists no events.
   * A range may wrap the year end (e.g. NBA: from 10 to 6).
   */
  season: { from: number; to: number };
  /** Markets books offer for this league's events (the simulator's menu, the API's promise). */
  markets: readonly MarketId[];
  /** Three-way moneyline (soccer: home/draw/away). */
  threeWay: boolean;
  /** Typical total and spread scale, so simulated lines look like the sport's. */
  scoring: { total: number; spreadStep: number; totalStep: number };
  /** Stats offered as player props, empty when the league has none. */
  propStats: readonly string[];
}

export interface SportsbookDef {
  id: string;
  /** Frozen, dense from 1, never reused: append new books at the end. */
  numericalId: number;
  name: string;
  displayName: string;
  isSharp: boolean;
  hasLiveOdds: boolean;
  hasPlayerProps: boolean;
  regions: readonly Region[];
  requiresTier: TierName;
  /** Hidden from `/sportsbooks` unless `include_unlisted=true` (exchanges, white labels). */
  unlisted: boolean;
}

export interface TeamDef {
  /** Slug, unique across the catalog. */
  id: string;
  numericalId: number;
  name: string;
  abbreviation: string | null;
  sport: string;
  leagues: readonly string[];
  /**
   * Other spellings books use. Matching is exact after case and punctuation folding, and
   * scoped to a league, so "Washington" can belong to one team without "Washington State"
   * ever matching it.
   */
  aliases: readonly string[];
}

export interface MarketDef {
  id: MarketId;
  numericalId: number | null;
  name: string;
  description: string;
  hasLine: boolean;
  examples: readonly string[];
}
