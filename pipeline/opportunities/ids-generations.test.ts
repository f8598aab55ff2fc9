import { describe, expect, it } from 'vitest';
import { Harness, T0, event, spread } from './fixtures/builders.js';
import { ID_GENERATION_MS, IdCache, ageIds, familyOpportunityId, forgetRow, opportunityId } from './ids.js';

const leg = (id: string, book: string) => ({ id, book, selection: 'home', line: -3.5 });
const family = (ids: IdCache, rowCount = 1000) => ({ ids, key: 'f', rowCount });
const A = [leg('r1', 'a'), leg('s1', 'b')];
const B = [leg('r2', 'a'), leg('s2', 'b')];

describe('a family id cache by generations', () => {
  it('drops a combination nobody asked for during a whole generation and keeps one asked for in each', () => {
    const cache = new IdCache();
    ageIds(cache, T0);
    familyOpportunityId(family(cache), 'arbitrage', 'e1', A);
    familyOpportunityId(family(cache), 'arbitrage', 'e1', B);
    // arbitrage, r1, r1>s1, r2, r2>s2
    expect(cache.size).toBe(5);
    ageIds(cache, T0 + ID_GENERATION_MS);
    expect(familyOpportunityId(family(cache), 'arbitrage', 'e1', A)).toBe(opportunityId('arbitrage', 'e1', 'f', A));
    // A moved into the new generation (3 nodes) beside the older one (5).
    expect([cache.nodes, cache.olderNodes]).toEqual([3, 5]);
    ageIds(cache, T0 + 2 * ID_GENERATION_MS);
    expect([cache.nodes, cache.olderNodes]).toEqual([0, 3]);
    // B is computed again, the same id as before.
    expect(familyOpportunityId(family(cache), 'arbitrage', 'e1', B)).toBe(opportunityId('arbitrage', 'e1', 'f', B));
  });

  it('starts no new generation before the current one is a generation old', () => {
    const cache = new IdCache();
    ageIds(cache, T0);
    familyOpportunityId(family(cache), 'arbitrage', 'e1', A);
    ageIds(cache, T0 + ID_GENERATION_MS - 1);
    expect([cache.nodes, cache.olderNodes]).toEqual([3, 0]);
  });

  it('keeps at most two generations of its node bound however many combinations come', () => {
    const cache = new IdCache(10);
    for (let i = 0; i < 100; i++) familyOpportunityId(family(cache), 'arbitrage', 'e1', [leg(`r${i}`, 'a'), leg(`s${i}`, 'b')]);
    expect(cache.nodes).toBeLessThanOrEqual(10);
    expect(cache.size).toBeLessThanOrEqual(20);
  });

  it('forgets a row that left in both generations', () => {
    const cache = new IdCache();
    ageIds(cache, T0);
    familyOpportunityId(family(cache), 'arbitrage', 'e1', A);
    ageIds(cache, T0 + ID_GENERATION_MS);
    familyOpportunityId(family(cache), 'arbitrage', 'e1', [leg('r1', 'a'), leg('s2', 'b')]);
    expect([cache.nodes, cache.olderNodes]).toEqual([3, 3]);
    forgetRow(cache, 'r1');
    expect([cache.nodes, cache.olderNodes]).toEqual([0, 0]);
  });

  it('in the processor, holds what the engines asked for lately, not every pair the rows ever formed', () => {
    const books = ['draftkings', 'fanduel', 'betmgm', 'caesars'];
    const pairs = books.flatMap((h) => books.filter((w) => w !== h).map((w) => [h, w] as const));
    /**
     * Every book at -110 both ways but `pair`: its first book's home and second's away at +120, an
     * arbitrage. The reference moves by a cent every second, so the family is recomputed each time.
     */
    const board = (pair: readonly [string, string], t: number) =>
      [
        ...spread('pinnacle', -3.5, t % 2 === 0 ? -110 : -111, -110),
        ...books.map((b) => spread(b, -3.5, b === pair[0] ? 120 : -110, b === pair[1] ? 120 : -110)),
      ].flat();
    const run = (firstPairs: readonly (readonly [string, string])[]): Harness => {
      const h = new Harness({ referenceBooks: ['pinnacle'], fallbackReferenceBooks: [] });
      h.event(event(), T0);
      firstPairs.forEach((p, i) => h.ticks(board(p, i), T0 + i * 1000));
      // Then the same pair every second for three generations.
      for (let t = 60; t <= 240; t++) h.ticks(board(pairs[0] as readonly [string, string], t), T0 + t * 1000);
      return h;
    };
    // The twelve pairs of books one after the other in the first seconds, then one pair only.
    const wandered = run(pairs);
    const stayed = run([pairs[0] as readonly [string, string]]);
    expect(wandered.processor.idCacheNodes).toBe(stayed.processor.idCacheNodes);
    expect(wandered.processor.idCacheNodes).toBe(36);
  });
});
