import { foldName } from '../../schemas/index.js';
import type { TeamDef } from '../../schemas/index.js';

/**
 * Search over teams for the `team` and `q` filters: an exact id, or whole words of the name or
 * any alias ("lakers" finds "Los Angeles Lakers"; "wash" finds nothing, by design: partial words
 * would make "Washington" find "Washington State").
 */
export class TeamIndex {
  private readonly teams = new Map<string, TeamDef>();
  private readonly spellings: { id: string; folded: string }[] = [];

  constructor(teams: readonly TeamDef[]) {
    for (const t of teams) {
      this.teams.set(t.id, t);
      const names = new Set([t.name, ...t.aliases, ...(t.abbreviation ? [t.abbreviation] : [])].map(foldName));
      for (const folded of names) this.spellings.push({ id: t.id, folded: ` ${folded} ` });
    }
  }

  get(id: string): TeamDef | undefined {
    return this.teams.get(id);
  }

  all(): IterableIterator<TeamDef> {
    return this.teams.values();
  }

  /**
   * `/teams?q=`: any part of a name, alias or abbreviation, case- and accent-insensitive
   * ("lak" finds the Lakers, "tlant" Atlanta, "sao" São Paulo). For browsing, where a few
   * extra candidates are what the user wants; filters keep the whole-word `search`.
   */
  searchPartial(query: string): Set<string> {
    const ids = new Set<string>();
    if (this.teams.has(query)) ids.add(query);
    const folded = foldName(query);
    if (folded.length === 0) return ids;
    for (const s of this.spellings) if (s.folded.includes(folded)) ids.add(s.id);
    return ids;
  }

  search(query: string): Set<string> {
    const ids = new Set<string>();
    if (this.teams.has(query)) ids.add(query);
    const folded = foldName(query);
    if (folded.length === 0) return ids;
    const needle = ` ${folded} `;
    for (const s of this.spellings) if (s.folded.includes(needle)) ids.add(s.id);
    return ids;
  }
}
