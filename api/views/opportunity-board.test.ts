import { describe, expect, it } from 'vitest';
import { SPORTSBOOKS } from '../../schemas/index.js';
import type { ArbitrageOpportunity, Opportunity } from '../../schemas/index.js';
import { Harness, T0, event, ml } from '../../pipeline/opportunities/fixtures/builders.js';
import { opportunityRecords } from '../../pipeline/opportunities/index.js';
import { OpportunityBoard, tierBookScopes } from './opportunity-board.js';

describe('OpportunityBoard', () => {
  it('keeps the latest version, and drops an opportunity on its final version or tombstone', () => {
    const h = new Harness();
    const board = new OpportunityBoard();
    const apply = (changes: ReturnType<Harness['ticks']>): void => {
      for (const r of opportunityRecords(changes)) board.apply(r.key, r.value);
    };
    apply(h.event(event()));
    apply(h.ticks([...ml('pinnacle', -110, -110), ...ml('draftkings', -115, 110)]));
    expect(board.list('ev').map((e) => e.o.priceAmerican)).toEqual([110]);
    apply(h.ticks(ml('draftkings', -115, 108), T0 + 5000));
    expect(board.list('ev').map((e) => e.o.priceAmerican)).toEqual([108]);
    expect(board.lastUpdate).toBe(T0 + 5000);
    apply(h.ticks(ml('draftkings', -115, -105), T0 + 9000));
    expect([board.count('ev'), board.lastUpdate]).toEqual([0, T0 + 9000]);
  });
});

describe('OpportunityBoard and the search rate', () => {
  const arb = (id: string, foundAtCommission?: number): Opportunity => {
    const h = new Harness();
    h.event(event());
    h.ticks([...ml('fanduel', 110, -130), ...ml('caesars', -125, 105)]);
    const o = h.active('arbitrage')[0] as ArbitrageOpportunity;
    return { ...o, id, ...(foundAtCommission === undefined ? {} : { foundAtCommission }) };
  };

  it('serves a record found only below the board’s rates to reads at any rate, never to board-rate reads', () => {
    const board = new OpportunityBoard();
    const atBoard = arb('a');
    const below = arb('b', 2);
    board.apply('a', atBoard);
    board.apply('b', below);
    expect(board.list('arbitrage').map((e) => e.o.id)).toEqual(['a']);
    expect(board.list('arbitrage', 'any').map((e) => e.o.id)).toEqual(['a', 'b']);
    expect(board.situation('arbitrage', below.situation).map((e) => e.o.id)).toEqual(['a']);
    expect(board.situation('arbitrage', below.situation, 'any').map((e) => e.o.id)).toEqual(['a', 'b']);
    expect([board.get('b'), board.get('b', 'any')?.id, board.count('arbitrage'), board.count()]).toEqual([undefined, 'b', 1, 1]);
    // Found at the board's rates later: every read sees it.
    board.apply('b', arb('b'));
    expect(board.list('arbitrage').map((e) => e.o.id)).toEqual(['a', 'b']);
    expect(board.count()).toBe(2);
  });
});

describe('tierBookScopes', () => {
  it('gives the book sets of hobby and pro (sharp and enterprise see every book)', () => {
    expect(tierBookScopes(SPORTSBOOKS).map((s) => s.length)).toEqual([5, 15]);
  });
});
