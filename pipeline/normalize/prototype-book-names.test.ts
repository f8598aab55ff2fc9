/**
 * What went wrong: a book's own event id was read as `event.externalIds[book]`. For a book
 * named `constructor` (any feed, any Kafka producer can send one) that found Object's
 * constructor, so the listing was taken as already matched to every event and the book's
 * ticks opened a second event for the same game. External ids are now read by own key only.
 */
import { describe, expect, it } from 'vitest';
import type { LeagueDef, RawTick, TeamDef } from '../../schemas/index.js';
import { PROTOTYPE_NAMES } from '../../test/support/prototype-names.js';
import { Normalizer } from './normalizer.js';

const T0 = Date.UTC(2026, 10, 22, 18, 0);
const leagues: LeagueDef[] = [
  {
    id: 'nba',
    numericalId: 1,
    name: 'NBA',
    sport: 'basketball',
    season: { from: 10, to: 6 },
    markets: ['moneyline'],
    threeWay: false,
    scoring: { total: 228, spreadStep: 0.5, totalStep: 0.5 },
    propStats: [],
  },
];
const teams: TeamDef[] = [
  { id: 'lakers', numericalId: 1, name: 'Los Angeles Lakers', abbreviation: 'LAL', sport: 'basketball', leagues: ['nba'], aliases: [] },
  { id: 'celtics', numericalId: 2, name: 'Boston Celtics', abbreviation: 'BOS', sport: 'basketball', leagues: ['nba'], aliases: [] },
];
const raw = (over: Partial<RawTick>): RawTick => ({
  book: 'pinnacle',
  bookEventId: 'p1',
  sport: 'basketball',
  league: 'nba',
  homeTeam: 'Los Angeles Lakers',
  awayTeam: 'Boston Celtics',
  startTime: T0,
  isLive: false,
  market: 'moneyline',
  outcome: 'Los Angeles Lakers',
  line: null,
  participant: null,
  statCategory: null,
  priceAmerican: -120,
  status: 'open',
  ts: T0 - 1000,
  selectionId: null,
  ...over,
});

describe('books named after prototype members', () => {
  it('join the existing event of the game and appear in its external ids', () => {
    const n = new Normalizer({ teams, leagues });
    const first = n.handle(raw({}), T0).tick?.eventId;
    for (const [i, book] of PROTOTYPE_NAMES.entries()) {
      const r = n.handle(raw({ book, bookEventId: `x${i}` }), T0);
      expect([book, r.tick?.eventId]).toEqual([book, first]);
      const ids = r.events.at(-1)?.externalIds ?? {};
      expect([book, Object.hasOwn(ids, book), Object.getOwnPropertyDescriptor(ids, book)?.value]).toEqual([book, true, `x${i}`]);
    }
    expect(n.eventCount).toBe(1);
  });
});
