/**
 * Folds a team or player name for exact alias lookup: case, accents, punctuation and spacing
 * differ between books ("St. Louis Blues", "St Louis Blues", "ST LOUIS BLUES"), the words do
 * not. Deliberately no fuzzy matching: "Washington" must never find "Washington State".
 */
export function foldName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/**
 * A player's canonical id across books and feeds: the folded name with hyphens
 * ("Luka Dončić" -> "luka-doncic"). Books spell a player alike up to what `foldName` folds, so
 * a prop and a futures outcome of the same player share it.
 */
export function playerId(name: string): string {
  return foldName(name).replace(/ /g, '-');
}
