import { presentBookFreshness, presentWindow } from '../contract/index.js';
import type { QueryOf, ReplyOf } from '../contract/index.js';
import { csv } from '../contract/index.js';
import { known } from './parse-filters.js';
import type { ReadSide } from './read-side.js';

/**
 * Every book's measured freshness (the live board's ledger): confirmation age and feed lag
 * percentiles, update rate, suspended share and stale threshold, live and pre-match apart, over
 * the window it names. Facts about the books, not odds: every tier gets every book.
 */
type FreshnessDeps = Pick<ReadSide, 'board' | 'catalog'>;

export type FreshnessQuery = QueryOf<'/api/v1/freshness'>;

export function freshnessList(deps: FreshnessDeps, q: FreshnessQuery): ReplyOf<'/api/v1/freshness'> {
  const { board, catalog } = deps;
  const ledger = board.freshness;
  const named = known('sportsbook', csv(q.sportsbook), catalog.books, 'sportsbook');
  const books = named && [...named];
  const newest = ledger.newest;
  const report = ledger.report(newest ?? 0);
  const data = (books === undefined ? report.books : books.map((b) => ledger.bookReport(b, newest ?? 0))).map(presentBookFreshness);
  return {
    success: true,
    data,
    meta: { count: data.length, window: presentWindow(report, ledger.policy.windowMs, newest === null) },
  };
}
