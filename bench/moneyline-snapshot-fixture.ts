import type { RecordedSnapshot } from '../pipeline/feeds/theoddsapi/index.js';

/** Small recorded snapshots of one event's moneylines, for the tests of what is read off the recordings' pre-match moneylines. */

export const MINUTE = 60_000;
export const KICKOFF = '2025-11-09T18:00:00Z';
export const T0 = Date.parse('2025-11-09T12:00:00Z');

/** One book's moneyline of the event, American prices home then away. */
export const book = (key: string, home: number, away: number): Record<string, unknown> => ({
  key,
  last_update: '2025-11-09T11:59:00Z',
  markets: [
    {
      key: 'h2h',
      outcomes: [
        { name: 'Home Side', price: home },
        { name: 'Away Side', price: away },
      ],
    },
  ],
});

/** The snapshot `minutes` after `T0` of the one event, listed by `books`. */
export const snapshot = (minutes: number, books: Record<string, unknown>[], commence = KICKOFF): RecordedSnapshot => ({
  timestamp: T0 + minutes * MINUTE,
  data: [
    {
      id: 'ev1',
      sport_key: 'americanfootball_nfl',
      commence_time: commence,
      home_team: 'Home Side',
      away_team: 'Away Side',
      bookmakers: books,
    },
  ],
});
