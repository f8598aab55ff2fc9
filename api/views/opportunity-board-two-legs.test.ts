import { describe, expect, it } from 'vitest';
import { Harness, event, only, totals } from '../../pipeline/opportunities/fixtures/builders.js';
import { OpportunityBoard } from './opportunity-board.js';

/**
 * A middle (or low-hold market) is presented by its first two legs, which its row schema
 * requires. Typing the presenters from the route schemas made them refuse a record with fewer
 * legs; such a record (only a malformed topic message: the processor always builds two) must
 * then not reach the board, where it would fail every list answer and stream flush showing it.
 */
describe('the opportunity board and a middle without two legs', () => {
  it('does not serve it, and drops the version it replaces', () => {
    const h = new Harness();
    h.event(event({ sport: 'football', league: 'nfl', homeTeamId: 'kansas-city-chiefs', awayTeamId: 'buffalo-bills' }));
    h.ticks([...totals('draftkings', 44.5, -110, -110), ...totals('fanduel', 47.5, -110, -110)]);
    const middle = only(h.active('middle'));
    const board = new OpportunityBoard();
    board.apply(middle.id, middle);
    expect(board.count('middle')).toBe(1);
    board.apply(middle.id, { ...middle, legs: middle.legs.slice(0, 1) });
    expect(board.count('middle')).toBe(0);
    board.apply(middle.id, middle);
    expect(board.list('middle').map((e) => e.o.legs.length)).toEqual([2]);
  });
});
