/**
 * The error catalogue: every code the API answers with, its status and what it means. The
 * error handler, the `/docs/errors` page and the OpenAPI document all read it from here.
 */
export const ERROR_CODES = {
  invalid_request: { status: 400, description: 'A parameter or the body is missing or invalid; the message names it.' },
  unauthorized: { status: 401, description: 'The API key is missing or not valid.' },
  feature_required: { status: 403, description: "The key's tier lacks the feature; the message names the tier that has it." },
  not_found: { status: 404, description: 'No such sport, league, sportsbook, event or route.' },
  resync_required: { status: 410, description: "A delta's `since` is older than the change window; reload /odds and poll from its meta.next_since." },
  rate_limited: { status: 429, description: 'The per-minute request limit is spent; retry after Retry-After seconds.' },
  internal_error: { status: 500, description: 'An unexpected failure; it is logged with the request id.' },
  unavailable: { status: 503, description: 'The service is starting or shutting down, or the history store cannot answer a closing-line or CLV query; retry.' },
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
