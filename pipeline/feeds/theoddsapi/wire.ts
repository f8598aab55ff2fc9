/**
 * The Odds API v4 response shapes and the defensive parsers that turn untrusted JSON into them.
 * A parser returns null for an item it cannot use; the caller counts it and skips it.
 */

export interface WireOutcome {
  name: string;
  price: number;
  /** Handicap or threshold; absent for h2h. */
  point: number | null;
  /** Player name (props) or team name (team totals); absent otherwise. */
  description: string | null;
}

export interface WireMarket {
  key: string;
  /** Epoch ms, or null when the market carries none. */
  lastUpdate: number | null;
  outcomes: readonly unknown[];
}

export interface WireBookmaker {
  key: string;
  lastUpdate: number | null;
  markets: readonly unknown[];
}

export interface WireEvent {
  id: string;
  sportKey: string;
  commenceTime: number;
  homeTeam: string;
  awayTeam: string;
  bookmakers: readonly unknown[];
}

type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nonEmptyString(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function finiteNumber(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** ISO 8601 (dateFormat=iso) or epoch seconds (dateFormat=unix) to epoch ms; null if neither. */
export function parseApiTime(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value * 1000 : null;
  if (typeof value !== 'string' || value === '') return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

export function parseEvent(raw: unknown): WireEvent | null {
  if (!isObject(raw)) return null;
  const id = nonEmptyString(raw['id']);
  const sportKey = nonEmptyString(raw['sport_key']);
  const commenceTime = parseApiTime(raw['commence_time']);
  const homeTeam = nonEmptyString(raw['home_team']);
  const awayTeam = nonEmptyString(raw['away_team']);
  const bookmakers = raw['bookmakers'];
  if (id === null || sportKey === null || commenceTime === null || homeTeam === null || awayTeam === null) {
    return null;
  }
  if (!Array.isArray(bookmakers)) return null;
  return { id, sportKey, commenceTime, homeTeam, awayTeam, bookmakers };
}

export function parseBookmaker(raw: unknown): WireBookmaker | null {
  if (!isObject(raw)) return null;
  const key = nonEmptyString(raw['key']);
  const markets = raw['markets'];
  if (key === null || !Array.isArray(markets)) return null;
  return { key, lastUpdate: parseApiTime(raw['last_update']), markets };
}

export function parseMarket(raw: unknown): WireMarket | null {
  if (!isObject(raw)) return null;
  const key = nonEmptyString(raw['key']);
  const outcomes = raw['outcomes'];
  if (key === null || !Array.isArray(outcomes)) return null;
  return { key, lastUpdate: parseApiTime(raw['last_update']), outcomes };
}

export function parseOutcome(raw: unknown): WireOutcome | null {
  if (!isObject(raw)) return null;
  const name = nonEmptyString(raw['name']);
  const price = finiteNumber(raw['price']);
  if (name === null || price === null) return null;
  const rawPoint = raw['point'];
  const point = rawPoint === undefined || rawPoint === null ? null : finiteNumber(rawPoint);
  // A point that is present but not a finite number is unusable.
  if (point === null && rawPoint !== undefined && rawPoint !== null) return null;
  const description = nonEmptyString(raw['description']);
  return { name, price, point, description };
}

/** The error body The Odds API sends with a non-2xx status: `{ message, error_code }`. */
export function parseApiError(raw: unknown): { message: string | null; errorCode: string | null } {
  if (!isObject(raw)) return { message: null, errorCode: null };
  return { message: nonEmptyString(raw['message']), errorCode: nonEmptyString(raw['error_code']) };
}
