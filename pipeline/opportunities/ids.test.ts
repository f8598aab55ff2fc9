import { describe, expect, it } from 'vitest';
import { IdCache, familyOpportunityId, opportunityId } from './ids.js';

const leg = (id: string, book: string) => ({ id, book, selection: 'home', line: -3.5 });

describe('a family id cache', () => {
  it('stops at its node bound however many rows come and go, where it once kept every combination', () => {
    const cache = new IdCache(10);
    for (let i = 0; i < 100; i++) familyOpportunityId(cache, 'arbitrage', 'e1', 'f', [leg(`r${i}`, 'a'), leg(`s${i}`, 'b')]);
    expect(cache.nodes).toBeLessThanOrEqual(10);
  });

  it('gives the same id after it starts over as before', () => {
    const cache = new IdCache(4);
    const legs = [leg('r1', 'a'), leg('s1', 'b')];
    const first = familyOpportunityId(cache, 'arbitrage', 'e1', 'f', legs);
    familyOpportunityId(cache, 'arbitrage', 'e1', 'f', [leg('r2', 'a'), leg('s2', 'b')]);
    expect(cache.nodes).toBe(3);
    expect(familyOpportunityId(cache, 'arbitrage', 'e1', 'f', legs)).toBe(first);
    expect(first).toBe(opportunityId('arbitrage', 'e1', 'f', legs));
  });
});
