import { describe, expect, it } from 'vitest';
import { Harness, T0, event, spread } from './fixtures/builders.js';
import { IdCache, familyOpportunityId, forgetRow, opportunityId } from './ids.js';

const leg = (id: string, book: string) => ({ id, book, selection: 'home', line: -3.5 });
/** A family of `rows` live rows around a cache (key `f`). */
const family = (ids: IdCache, rowCount = 1000) => ({ ids, key: 'f', rowCount });

describe('a family id cache', () => {
  it('stops at its node bound however many rows come and go, where it once kept every combination', () => {
    const cache = new IdCache(10);
    for (let i = 0; i < 100; i++) familyOpportunityId(family(cache), 'arbitrage', 'e1', [leg(`r${i}`, 'a'), leg(`s${i}`, 'b')]);
    expect(cache.nodes).toBeLessThanOrEqual(10);
  });

  it('keeps at most a few nodes per live row of its family, however many ways those rows pair up', () => {
    // Three live rows, four nodes each: the rows that stay pair up anew as prices move.
    const cache = new IdCache(4096, 4, 8);
    for (let i = 0; i < 100; i++)
      familyOpportunityId(family(cache, 3), 'arbitrage', 'e1', [leg(`r${i % 3}`, 'a'), leg(`s${Math.floor(i / 3)}`, 'b')]);
    expect(cache.nodes).toBeLessThanOrEqual(12);
    expect(cache.limit(3)).toBe(12);
    expect(cache.limit(1)).toBe(8);
    expect(cache.limit(5000)).toBe(4096);
  });

  it('gives the same id after it starts over as before', () => {
    const cache = new IdCache(4);
    const legs = [leg('r1', 'a'), leg('s1', 'b')];
    const first = familyOpportunityId(family(cache), 'arbitrage', 'e1', legs);
    familyOpportunityId(family(cache), 'arbitrage', 'e1', [leg('r2', 'a'), leg('s2', 'b')]);
    expect(cache.nodes).toBe(3);
    expect(familyOpportunityId(family(cache), 'arbitrage', 'e1', legs)).toBe(first);
    expect(first).toBe(opportunityId('arbitrage', 'e1', 'f', legs));
  });

  it('forgets every combination with a row that left, first leg or later, and keeps the others', () => {
    const cache = new IdCache();
    familyOpportunityId(family(cache), 'arbitrage', 'e1', [leg('r1', 'a'), leg('s1', 'b')]);
    familyOpportunityId(family(cache), 'arbitrage', 'e1', [leg('r2', 'a'), leg('s1', 'b')]);
    familyOpportunityId(family(cache), 'arbitrage', 'e1', [leg('r2', 'a'), leg('s2', 'b')]);
    familyOpportunityId(family(cache), 'ev', 'e1', [leg('s1', 'b')]);
    // arbitrage, r1, r1>s1, r2, r2>s1, r2>s2, ev, ev>s1
    expect(cache.nodes).toBe(8);
    forgetRow(cache, 's1');
    // arbitrage, r2, r2>s2: the ev kind led only to s1, r1 only to r1>s1
    expect(cache.nodes).toBe(3);
    expect(familyOpportunityId(family(cache), 'arbitrage', 'e1', [leg('r2', 'a'), leg('s2', 'b')])).toBe(
      opportunityId('arbitrage', 'e1', 'f', [leg('r2', 'a'), leg('s2', 'b')]),
    );
    expect(cache.nodes).toBe(3);
  });

  it('in the processor, holds the combinations of the rows on the board however often the line moves', () => {
    const h = new Harness({ referenceBooks: ['pinnacle'], fallbackReferenceBooks: [] });
    h.event(event(), T0);
    const atLine = (line: number, on: boolean): ReturnType<typeof spread> => [
      ...spread('pinnacle', line, on ? -110 : null, on ? -110 : null),
      ...spread('draftkings', line, on ? 130 : null, on ? -150 : null),
    ];
    h.ticks(atLine(-3.5, true), T0);
    const oneLine = h.processor.idCacheNodes;
    expect(oneLine).toBeGreaterThan(0);
    for (let i = 1; i <= 40; i++) {
      // The books move to the next line and pull the one before.
      h.ticks([...atLine(-3.5 - i, true), ...atLine(-3.5 - (i - 1), false)], T0 + i * 1000);
    }
    expect(
      h
        .active()
        .map((o) => `${o.kind} ${'line' in o ? o.line : '-'}`)
        .sort(),
    ).toEqual(['arbitrage -43.5', 'ev -43.5', 'low_hold -43.5']);
    expect(h.processor.idCacheNodes).toBe(oneLine);
  });
});
