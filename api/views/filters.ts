import type { CanonicalEvent, OddsRow } from '../../schemas/index.js';
import type { Catalog } from './catalog.js';

/** The shared filters, parsed once per request into sets and bounds. */
export interface EventFilter {
  sports?: Set<string>;
  leagues?: Set<string>;
  eventIds?: Set<string>;
  live?: boolean;
  /** Team ids any side must be one of (from `team`). */
  teamIds?: Set<string>;
  /** Team ids from `q`; an event also matches `q` on its id or league name. */
  q?: { text: string; teamIds: Set<string> };
  /** US Eastern calendar date of the start, YYYY-MM-DD. */
  date?: string;
  /** Events that have at least one row of one of these books. */
  books?: Set<string>;
}

export interface RowFilter {
  books?: Set<string>;
  markets?: Set<string>;
  /**
   * Finer than `markets` (a category such as `spread` takes only the side rows of a period
   * market; `player_points` one stat of player props); `markets` then holds the market ids it can
   * match, and the board's per-market counters no longer count the match exactly.
   */
  marketTest?: (r: OddsRow) => boolean;
  minOdds?: number;
  maxOdds?: number;
}

const easternDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York', year: 'numeric', month: '2-digit', day: '2-digit' });

export function easternDateOf(ms: number): string {
  return easternDate.format(ms);
}

export function eventMatches(e: CanonicalEvent, f: EventFilter, catalog: Catalog): boolean {
  if (f.sports && !f.sports.has(e.sport)) return false;
  if (f.leagues && !f.leagues.has(e.league)) return false;
  if (f.eventIds && !f.eventIds.has(e.id)) return false;
  if (f.live !== undefined && e.isLive !== f.live) return false;
  if (f.teamIds && !f.teamIds.has(e.homeTeamId) && !f.teamIds.has(e.awayTeamId)) return false;
  if (f.q) {
    const { text, teamIds } = f.q;
    const leagueName = catalog.leagues.get(e.league)?.name.toLowerCase() ?? '';
    if (!teamIds.has(e.homeTeamId) && !teamIds.has(e.awayTeamId) && !e.id.includes(text) && !leagueName.includes(text)) return false;
  }
  if (f.date !== undefined && easternDateOf(e.startTime) !== f.date) return false;
  return true;
}

export function rowMatches(r: OddsRow, f: RowFilter): boolean {
  if (f.books && !f.books.has(r.book)) return false;
  if (f.markets && !f.markets.has(r.market)) return false;
  if (f.marketTest && !f.marketTest(r)) return false;
  if (f.minOdds !== undefined && r.priceAmerican < f.minOdds) return false;
  if (f.maxOdds !== undefined && r.priceAmerican > f.maxOdds) return false;
  return true;
}
