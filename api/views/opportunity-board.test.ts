import { describe, expect, it } from 'vitest';
import { SPORTSBOOKS } from '../../schemas/index.js';
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

describe('tierBookScopes', () => {
  it('gives the book sets of hobby and pro (sharp and enterprise see every book)', () => {
    expect(tierBookScopes(SPORTSBOOKS).map((s) => s.length)).toEqual([5, 15]);
  });
});
