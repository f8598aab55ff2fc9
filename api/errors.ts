/**
 * The error catalogue: every code the API answers with, its status and what it means. The
 * error handler, the `/docs/errors` page and the OpenAPI document all read it from here.
 */
export const ERROR_CODES = {
  invalid_request: { status: 400, description: 'A parameter or the body is missing or invalid; the message names it.' },
  unauthorized: { status: 401, description: 'The API key is missing or not valid.' },
  feature_required: { status: 403, description: "The key's tier lacks the feature; the message names the tier that has it." },
  not_found: { status: 404, description: 'No such sport, league, sportsbook, event or route.' },
  request_timeout: { status: 408, description: 'The request (headers and body) did not arrive within the server\'s request timeout; the connection is closed.' },
  resync_required: { status: 410, description: "A delta's `since` is older than the change window; reload /odds and poll from its meta.next_since." },
  payload_too_large: { status: 413, description: 'The body is larger than the server accepts (1 MiB).' },
  unsupported_media_type: { status: 415, description: 'The body is not plain JSON: send it as application/json in UTF-8, without Content-Encoding.' },
  rate_limited: { status: 429, description: 'The per-minute request limit is spent; retry after Retry-After seconds.' },
  concurrent_request_cap: { status: 429, description: 'Too many open connections from one client address; close some and retry.' },
  headers_too_large: { status: 431, description: 'The request headers are larger than the server accepts (16 KiB).' },
  internal_error: { status: 500, description: 'An unexpected failure; it is logged with the request id.' },
  unavailable: { status: 503, description: 'The service is starting or shutting down, or the history store cannot answer a closing-line or CLV query; retry.' },
  overloaded: { status: 503, description: 'The server is shedding load; retry after Retry-After seconds.' },
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
  get status(): number {
    return ERROR_CODES[this.code].status;
  }
}

export const DOCS_PATH = '/api/v1/docs/errors';

export function errorBody(code: ErrorCode, message: string): { error: { code: ErrorCode; message: string; docs: string } } {
  return { error: { code, message, docs: `${DOCS_PATH}#${code}` } };
}
