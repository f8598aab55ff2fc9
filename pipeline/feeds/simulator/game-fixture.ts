import { LEAGUES, SPORTSBOOKS, TEAMS } from '../../../schemas/index.js';
import { type Listing, type SimEvent, buildQuotes } from './board.js';
import { bookProfiles } from './books.js';

/** Tests' games, built as the simulator builds them, without its draws. */

const HOUR = 3_600_000;

/** One NHL game before its start (at 100 hours), listed by the books, each with its quotes built and none priced yet. */
export function pregameGame(bookIds: readonly string[]): SimEvent {
  const league = LEAGUES.find((l) => l.id === 'nhl');
  const [home, away] = TEAMS.filter((t) => t.leagues.includes('nhl'));
  if (league === undefined || home === undefined || away === undefined) throw new Error('the catalog has NHL teams');
  const ev: SimEvent = {
    serial: 1,
    id: 'sim-1',
    league,
    home,
    away,
    startTime: 100 * HOUR,
    endTime: 103 * HOUR,
    status: 'upcoming',
    neutralSite: false,
    traps: [],
    state: { margin: 0, total: 6, marginScale: 1, totalScale: 1, drawBase: 0 },
    props: [],
    jumpAt: -Infinity,
    jumpMargin: 0,
    jumpTotal: 0,
    leanMargin: 0,
    leanTotal: 0,
    listings: [],
    marketQuotes: new Map(),
  };
  let uid = 0;
  for (const book of bookProfiles(SPORTSBOOKS.filter((b) => bookIds.includes(b.id)))) {
    const listing: Listing = {
      book,
      event: ev,
      bookEventId: book.id,
      homeTeam: home.name,
      awayTeam: away.name,
      homeName: home.name,
      awayName: away.name,
      startTime: ev.startTime,
      flipped: false,
      closed: false,
      behindMargin: 0,
      behindTotal: 0,
      quotes: [],
      selectionIds: null,
    };
    listing.quotes = buildQuotes(listing, () => ++uid);
    ev.listings.push(listing);
  }
  return ev;
}
