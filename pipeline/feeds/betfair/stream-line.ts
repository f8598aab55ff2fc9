/**
 * One line of a stream connection or recording as a JSON object, or why it is not one: the
 * first check every message of the Exchange Stream and of the cricket score stream goes through.
 */

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export function readStreamLine(line: string): { message: Json } | { reason: string } {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return { reason: 'not JSON' };
  }
  return isObject(message) ? { message } : { reason: 'not a JSON object' };
}
