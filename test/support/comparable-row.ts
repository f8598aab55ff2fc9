/**
 * Fields that follow the clock (ages, staleness and the scores built on them) at any depth: a
 * streamed row shows them as of when its frame was sent, REST as of the read, so a mirror built
 * from frames is compared with `/odds` without them.
 */
const CLOCK_FIELDS: ReadonlySet<string> = new Set([
  'possibly_stale',
  'oldest_odds_age_seconds',
  'odds_age_seconds',
  'warnings',
  'confidence_score',
  'confidence',
  'quality_score',
]);

/** A row as comparable text: keys sorted at every depth, clock fields left out. */
export function comparableRow(row: Record<string, unknown>): string {
  return JSON.stringify(row, (k, v: unknown) => {
    if (CLOCK_FIELDS.has(k)) return undefined;
    return v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v;
  });
}
