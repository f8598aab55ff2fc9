import { foldName } from '../../schemas/index.js';
import type { TeamDef } from '../../schemas/index.js';

/**
 * League-scoped exact lookup of team names, aliases and abbreviations, after folding. A
 * spelling that two teams of one league share is ambiguous and resolves to neither: a wrong
 * match merges two games, which is worse than an unmatched tick that is counted and shown.
 */
export class TeamDirectory {
  private readonly byLeague = new Map<string, Map<string, string>>();
  private readonly ambiguous = new Map<string, Set<string>>();
  private readonly teams = new Map<string, TeamDef>();

  constructor(teams: readonly TeamDef[]) {
    for (const team of teams) {
      this.teams.set(team.id, team);
      const spellings = [team.name, ...team.aliases];
      if (team.abbreviation) spellings.push(team.abbreviation);
      for (const league of team.leagues) {
        for (const spelling of spellings) this.add(league, foldName(spelling), team.id);
      }
    }
  }

  private add(league: string, folded: string, teamId: string): void {
    if (folded.length === 0) return;
    let index = this.byLeague.get(league);
    if (!index) {
      index = new Map();
      this.byLeague.set(league, index);
    }
    let ambiguous = this.ambiguous.get(league);
    if (!ambiguous) {
      ambiguous = new Set();
      this.ambiguous.set(league, ambiguous);
    }
    if (ambiguous.has(folded)) return;
    const existing = index.get(folded);
    if (existing === undefined) index.set(folded, teamId);
    else if (existing !== teamId) {
      index.delete(folded);
      ambiguous.add(folded);
    }
  }

  /** The catalog team id for a book's spelling in a league, or undefined. */
  resolve(league: string, name: string): string | undefined {
    return this.byLeague.get(league)?.get(foldName(name));
  }

  team(id: string): TeamDef | undefined {
    return this.teams.get(id);
  }
}
