import { foldName } from '../names.js';
import type { TeamDef } from '../types.js';

/** A catalog entry before numbering: `index.ts` assigns numericalId from its position. */
export type TeamSeed = Omit<TeamDef, 'numericalId'>;

/** "St. Louis Blues" -> "st-louis-blues": the default id, from the name as first written. */
export function slug(name: string): string {
  return foldName(name).replace(/ /g, '-');
}

/** Aliases without repeats, without the name itself, abbreviation included (books use it). */
function lookupAliases(name: string, abbreviation: string | null, aliases: readonly string[]): string[] {
  const seen = new Set([foldName(name)]);
  const out: string[] = [];
  for (const alias of abbreviation === null ? aliases : [...aliases, abbreviation]) {
    const folded = foldName(alias);
    if (folded !== '' && !seen.has(folded)) {
      seen.add(folded);
      out.push(alias);
    }
  }
  return out;
}

export interface TeamOptions {
  /** Set only when the slug of the name is not the id (e.g. after a rename): ids are frozen. */
  id?: string;
}

/**
 * Builder for one league's teams: `team(name, abbreviation, aliases)`. The id is `idPrefix` plus
 * the slug of the name; the abbreviation is added to the aliases.
 */
export function teamsOf(sport: string, league: string, idPrefix = '') {
  return (name: string, abbreviation: string | null, aliases: readonly string[], options: TeamOptions = {}): TeamSeed => ({
    id: options.id ?? idPrefix + slug(name),
    name,
    abbreviation,
    sport,
    leagues: [league],
    aliases: lookupAliases(name, abbreviation, aliases),
  });
}

export interface PlayerOptions extends TeamOptions {
  /** Surname when it is not everything after the first word ("Andrea Kimi Antonelli"). */
  surname?: string;
  /** The name is written family name first ("Wang Chuqin", "Zhang Weili"). */
  familyFirst?: boolean;
  /** More spellings: nicknames, other transliterations, maiden names. */
  aliases?: readonly string[];
  abbreviation?: string | null;
}

/**
 * Builder for players of an individual sport, who are the "teams" of its events. Aliases are the
 * forms books print: "Alcaraz C.", "C. Alcaraz", "Alcaraz, Carlos" (family-first names also get
 * the given-first order: "Chuqin Wang").
 */
export function playersOf(sport: string, league: string, idPrefix = '') {
  return (name: string, options: PlayerOptions = {}): TeamSeed => {
    const words = name.split(' ');
    let given: string;
    let family: string;
    if (options.familyFirst === true) {
      family = words[0] ?? name;
      given = words.slice(1).join(' ');
    } else if (options.surname !== undefined) {
      family = options.surname;
      given = name.slice(0, name.length - family.length).trim();
    } else {
      given = words[0] ?? name;
      family = words.slice(1).join(' ');
    }
    const initial = `${given.charAt(0)}.`;
    const generated =
      options.familyFirst === true
        ? [`${given} ${family}`, `${family} ${initial}`, `${initial} ${family}`]
        : [`${family} ${initial}`, `${initial} ${family}`, `${family}, ${given}`];
    const abbreviation = options.abbreviation ?? null;
    return {
      id: options.id ?? idPrefix + slug(name),
      name,
      abbreviation,
      sport,
      leagues: [league],
      aliases: lookupAliases(name, abbreviation, [...generated, ...(options.aliases ?? [])]),
    };
  };
}
