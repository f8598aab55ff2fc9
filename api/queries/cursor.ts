import { createHash } from 'node:crypto';
import { MARKET_IDS, SELECTION_TYPES } from '../../schemas/index.js';
import type { MarketId, SelectionType } from '../../schemas/index.js';
import type { Position } from './odds-query.js';

/**
 * The opaque `cursor` of `GET /odds`: the position of the last row served (sort value and board
 * place) and a fingerprint of the query it belongs to, base64url-encoded JSON. The next page
 * starts strictly after that position in the board as it is then, so a walk never repeats a row
 * and never skips one that stayed on the board; rows added behind the position during the walk
 * are the delta's to report. Stateless: any replica can continue any walk.
 */
export interface Cursor {
  /** Query fingerprint. */
  q: string;
  p: Position;
}

const CURSOR_VERSION = 1;

export function encodeCursor(c: Cursor): string {
  const { v, t, e, r } = c.p;
  const payload = [CURSOR_VERSION, c.q, v, t, e, r.market, r.participant, r.statCategory, r.line, r.selection, r.book];
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

const isStr = (x: unknown): x is string => typeof x === 'string';
const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const isStrOrNull = (x: unknown): x is string | null => x === null || typeof x === 'string';

/** Null for anything that is not a cursor this server made. */
export function decodeCursor(text: string): Cursor | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length !== 11) return null;
  const [version, q, v, t, e, market, participant, stat, line, selection, book] = parsed as unknown[];
  if (version !== CURSOR_VERSION || !isStr(q) || !(v === null || isStr(v) || isNum(v)) || !isNum(t) || !isStr(e)) return null;
  if (!isStr(market) || !(MARKET_IDS as readonly string[]).includes(market)) return null;
  if (!isStr(selection) || !(SELECTION_TYPES as readonly string[]).includes(selection)) return null;
  if (!isStrOrNull(participant) || !isStrOrNull(stat) || !(line === null || isNum(line)) || !isStr(book)) return null;
  return {
    q,
    p: { v, t, e, r: { market: market as MarketId, participant, statCategory: stat, line, selection: selection as SelectionType, book } },
  };
}

/** Fingerprint of the parameters that decide which rows a listing holds and in what order. */
export function queryFingerprint(parts: Record<string, unknown>): string {
  const canonical = Object.keys(parts)
    .sort()
    .map((k) => `${k}=${parts[k] === undefined ? '' : String(parts[k])}`)
    .join('&');
  return createHash('sha1').update(canonical).digest('base64url').slice(0, 10);
}
