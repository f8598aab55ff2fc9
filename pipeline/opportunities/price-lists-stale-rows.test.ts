import { describe, expect, it } from 'vitest';
import type { OddsRow, SelectionType } from '../../schemas/index.js';
import { combosUnder } from './combos.js';
import type { LineGroupState } from './line-group.js';
import { newLineGroup, putRow, takeRow } from './line-group.js';

/** What the price scans read of a row: book, selection, price (an id to tell the objects apart). */
const row = (book: string, selection: SelectionType, priceAmerican: number): OddsRow =>
  ({ id: `${book}-${selection}-${priceAmerican}`, book, selection, priceAmerican }) as OddsRow;

const OUTCOMES: readonly SelectionType[] = ['home', 'away'];
/** Arbitrage's search: every combination whose implied probabilities sum under 1. */
const ARBITRAGE = { maxSum: 1, strict: true, limit: 8 };

/** The rows the group's caches reach that the group itself no longer holds. */
function heldOffTheGroup(g: LineGroupState): string[] {
  const live = new Set(g.rows.filter((r): r is OddsRow => r !== null));
  const cached: OddsRow[] = [];
  for (const list of g.priceLists?.lists ?? []) for (const p of list) cached.push(p.row);
  for (const p of g.summary?.best ?? []) cached.push(p.row);
  return [...new Set(cached)].filter((r) => !live.has(r)).map((r) => r.id);
}

describe("a line group's cached price lists", () => {
  it('let go of the rows of an arbitrage that a price move closed, though no search asks for the lists again', () => {
    const g = newLineGroup(null, '-');
    putRow(g, row('a', 'home', 120));
    putRow(g, row('a', 'away', -150));
    putRow(g, row('b', 'home', -150));
    putRow(g, row('b', 'away', 120));
    // a's home at +120 and b's away at +120: 0.4545 + 0.4545 < 1, so the sorted lists are built.
    expect(combosUnder(g, OUTCOMES, ARBITRAGE).map((c) => c.rows.map((r) => r.id))).toEqual([['a-home-120', 'b-away-120']]);
    expect(g.priceLists?.lists?.flat().length).toBe(4);
    // Both books move in: the best prices alone now rule out any combination, so the search
    // stops before the lists; before the fix the lists of the last version kept all four old rows.
    putRow(g, row('a', 'home', -130));
    putRow(g, row('b', 'away', -130));
    takeRow(g, row('a', 'away', -150));
    putRow(g, row('a', 'away', 105));
    expect(combosUnder(g, OUTCOMES, ARBITRAGE)).toEqual([]);
    expect(g.priceLists).toBeNull();
    expect(heldOffTheGroup(g)).toEqual([]);
  });

  it('are still built once per version and shared by the searches of that version', () => {
    const g = newLineGroup(null, '-');
    putRow(g, row('a', 'home', 120));
    putRow(g, row('b', 'away', 120));
    combosUnder(g, OUTCOMES, ARBITRAGE);
    const lists = g.priceLists;
    expect(lists?.version).toBe(2);
    combosUnder(g, OUTCOMES, { maxSum: 1.02, strict: false, limit: 8 });
    expect(g.priceLists).toBe(lists);
  });
});
