import { ApiError } from '../errors.js';

/** A query parameter the answer cannot take: 400 naming it (MCP tools reword it as an argument). */
export const badQuery = (field: string, message: string): ApiError =>
  new ApiError('invalid_request', `Invalid query parameter '${field}': ${message}`);
