/**
 * How a value outside a known set is refused: with the value it most likely meant, and the set
 * itself when it is short enough to read in one line (a long one is named by the endpoint that
 * lists it). Clients written for other odds APIs send their own names (`spreads`, `h2h`), and a
 * bare "unknown" leaves their authors guessing.
 */

/** Sets up to this size are listed in full in the message. */
const LISTED_UP_TO = 15;

/** Levenshtein distance: insertions, deletions and substitutions, one row of memory. */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] as number;
      row[j] = Math.min(above + 1, (row[j - 1] as number) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length] as number;
}

/**
 * The allowed value nearest to `value` (case aside), when it is near enough to be a slip: at most
 * a third of the value's length away, and never more than 3 edits. Ties go to the first allowed.
 */
export function closestMatch(value: string, allowed: Iterable<string>): string | undefined {
  const v = value.toLowerCase();
  const limit = Math.min(3, Math.max(1, Math.floor(v.length / 3)));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of allowed) {
    const d = editDistance(v, candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

export interface KnownSet {
  /** What one value is: `market`, `sport`. */
  what: string;
  values: Iterable<string>;
  /** Names other APIs use for a value of ours, offered when no value of ours is near. */
  synonyms?: ReadonlyMap<string, string>;
  /** Where a long set is listed, e.g. `GET /api/v1/sportsbooks`. */
  listedAt?: string;
  /** Values shown in the list that are patterns rather than ids (`player_<stat>`). */
  patterns?: readonly string[];
}

/**
 * "unknown market 'spreads'; did you mean 'spread'? Allowed: moneyline, ..." for a short set;
 * "unknown sport 'quidditch'; GET /api/v1/sports lists them" for a long one.
 */
export function unknownValue(value: string, set: KnownSet): string {
  const values = [...set.values];
  const near = closestMatch(value, values) ?? set.synonyms?.get(value.toLowerCase());
  const shown = [...values, ...(set.patterns ?? [])];
  const rest = shown.length <= LISTED_UP_TO || set.listedAt === undefined ? `allowed: ${shown.join(', ')}` : `${set.listedAt} lists them`;
  return near === undefined
    ? `unknown ${set.what} '${value}'; ${rest}`
    : `unknown ${set.what} '${value}'; did you mean '${near}'? ${rest.charAt(0).toUpperCase()}${rest.slice(1)}`;
}

/** A schema `enum` refusal: "must be one of a, b, c", with the value it likely meant when one is near. */
export function notOneOf(allowed: readonly unknown[], value: unknown): string {
  const names = allowed.map(String);
  const near = typeof value === 'string' ? closestMatch(value, names) : undefined;
  return `must be one of ${names.join(', ')}${near === undefined ? '' : `; did you mean '${near}'?`}`;
}
