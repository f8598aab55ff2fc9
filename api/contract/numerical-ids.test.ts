/**
 * numerical_id on sports, leagues, sportsbooks, markets and teams: frozen, dense from 1, never
 * reused, unique within the domain. The catalog in schemas/reference is the persisted source
 * (append-only; the teams' first catalog is hash-pinned in schemas/reference/catalog.test.ts),
 * and the normalizer admits no entity the catalog lacks, so a restart or a new team cannot move
 * an id. This test keeps every domain dense and unique.
 */
import { describe, expect, it } from 'vitest';
import { LEAGUES, MARKETS, SPORTS, SPORTSBOOKS, TEAMS } from '../../schemas/index.js';

describe('numerical ids', () => {
  const domains: [string, readonly { id: string; numericalId: number | null }[]][] = [
    ['sports', SPORTS],
    ['leagues', LEAGUES],
    ['sportsbooks', SPORTSBOOKS],
    ['teams', TEAMS],
  ];
  for (const [name, items] of domains) {
    it(`numbers ${name} densely from 1 in catalog order`, () => {
      expect(items.map((x) => x.numericalId)).toEqual(items.map((_, i) => i + 1));
    });
  }

  it('numbers markets uniquely from 1 (niche markets may have none)', () => {
    const ids = MARKETS.map((m) => m.numericalId).filter((n): n is number => n !== null);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids.map((_, i) => i + 1));
  });

  it('pins the ids that clients may have stored', () => {
    expect(SPORTS.slice(0, 3).map((s) => [s.id, s.numericalId])).toEqual([
      ['basketball', 1],
      ['football', 2],
      ['hockey', 3],
    ]);
    expect(SPORTSBOOKS.slice(0, 2).map((s) => [s.id, s.numericalId])).toEqual([
      ['pinnacle', 1],
      ['circa', 2],
    ]);
    expect(LEAGUES.find((l) => l.id === 'nba')?.numericalId).toBe(1);
  });
});
