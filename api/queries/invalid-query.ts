import { ApiError } from '../errors.js';

/** A query parameter the answer cannot take: 400 naming it (MCP tools reword it as an argument). */
export const badQuery = (field: string, message: string): ApiError =>
  new ApiError('invalid_request', `Invalid query parameter '${field}': ${message}`);

/** A lower bound above its upper bound: 400 naming the lower one. */
export function checkBounds(field: string, min: number | undefined, max: number | undefined, other: string): void {
  if (min !== undefined && max !== undefined && min > max) throw badQuery(field, `must not exceed ${other}`);
}
