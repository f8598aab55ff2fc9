// The normalizer kept the events of leagues its process no longer normalized after a rebalance
// (its lifecycle sweep went on closing them beside the process that now owns them), and every
// assignment restored the events of every league. The pipeline now restores only the leagues of
// the raw partitions it owns and drops the others at a revoke.
import { describe, expect, it } from 'vitest';
import { LEAGUES, TEAMS } from '../../schemas/index.js';
import type { RawTick } from '../../schemas/index.js';
import { Normalizer } from './normalizer.js';
import { rawTick } from '../../test/support/raw-tick.js';

const T0 = Date.UTC(2026, 10, 22, 18);

const raw = (over: Partial<RawTick>): RawTick => rawTick(T0, { bookEventId: 'p1', ...over });

describe('Normalizer.forgetLeagues', () => {
  it('drops the events and listings of the leagues it no longer normalizes and keeps the others', () => {
    const n = new Normalizer({ teams: TEAMS, leagues: LEAGUES });
    const nba = n.handle(raw({}), T0).tick?.eventId;
    const nhl = n.handle(
      raw({
        bookEventId: 'p2',
        sport: 'hockey',
        league: 'nhl',
        homeTeam: 'Boston Bruins',
        awayTeam: 'Toronto Maple Leafs',
        outcome: 'Boston Bruins',
      }),
      T0,
    ).tick?.eventId;
    expect([nba, nhl, n.eventCount]).toEqual(['nba-20261122-bos-lal', 'nhl-20261122-tor-bos', 2]);

    n.forgetLeagues((league) => league !== 'nhl');
    expect(n.eventCount).toBe(1);
    // The NBA listing still resolves to its event: a DraftKings listing of the game joins it.
    expect(n.handle(raw({ book: 'draftkings', bookEventId: 'dk1' }), T0).tick?.eventId).toBe('nba-20261122-bos-lal');
    expect(n.eventCount).toBe(1);
  });
});
