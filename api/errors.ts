/**
 * The error catalogue: every code the API answers with, its status and what it means. The
 * error handler, the `/docs/errors` page and the OpenAPI document all read it from here.
 */
export const ERROR_CODES = {
  invalid_request: { status: 400, description: 'A parameter or the body is missing or invalid; the message names it.' },
  validation_error: {
    status: 400,
    description: 'The request is valid but refused in the current state (e.g. revoking the key that sent it); the message says why.',
  },
  offset_too_large: {
    status: 400,
    description: "`offset` is past the endpoint's bound (`max_offset`); walk further with `cursor` (/odds) or narrow the filters.",
  },
  unauthorized: { status: 401, description: 'The API key is missing or not valid.' },
  feature_required: { status: 403, description: "The key's tier lacks the feature; the message names the tier that has it." },
  cross_site_request: {
    status: 403,
    description:
      'A state-changing request (or a WebSocket handshake, closed with 4001) signed in by the session cookie came without an Origin of this server; send it from the web screen, or authenticate with the key.',
  },
  not_found: { status: 404, description: 'No such sport, league, sportsbook, event or route.' },
  conflict: {
    status: 409,
    description:
      'The change conflicts with the state it would change (e.g. rotating a key that was already rotated); the message names what is in the way.',
  },
  request_timeout: {
    status: 408,
    description: "The request (headers and body) did not arrive within the server's request timeout; the connection is closed.",
  },
  resync_required: {
    status: 410,
    description: "A delta's `since` is older than the change window; reload /odds and poll from its meta.next_since.",
  },
  payload_too_large: { status: 413, description: 'The body is larger than the server accepts (1 MiB).' },
  unsupported_media_type: {
    status: 415,
    description: 'The body is not plain JSON: send it as application/json in UTF-8, without Content-Encoding.',
  },
  rate_limited: { status: 429, description: 'The per-minute request limit is spent; retry after Retry-After seconds.' },
  concurrent_request_cap: { status: 429, description: 'Too many open connections from one client address; close some and retry.' },
  headers_too_large: { status: 431, description: 'The request headers are larger than the server accepts (16 KiB).' },
  too_many_streams: {
    status: 429,
    description:
      "The account may hold no stream at all (a limit of 0). Past a positive limit a new stream is not refused: it displaces the account's oldest.",
  },
  internal_error: { status: 500, description: 'An unexpected failure; it is logged with the request id.' },
  unavailable: {
    status: 503,
    description: 'The service is starting or shutting down, or the history store cannot answer a closing-line or CLV query; retry.',
  },
  overloaded: { status: 503, description: 'The server is shedding load; retry after Retry-After seconds.' },
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * Machine-readable extras of an error, beside `code` and `message`. Clients of the reference
 * service read `required_tier` (403) and `retry_after` (429, seconds) at the top level of the
 * body and others read them inside `error`, so errorBody() puts those two at both levels.
 */
export interface ErrorExtras {
  /** 403: the caller's tier. */
  tier?: string;
  /** 403: the cheapest tier that would allow the request. */
  required_tier?: string;
  /** 429: seconds until the window resets (also the Retry-After header). */
  retry_after?: number;
  /** 400 offset_too_large: the largest offset the endpoint takes. */
  max_offset?: number;
  /** 403 on too many sportsbooks: the tier's maximum and how many were asked for. */
  max_books?: number;
  requested_books?: number;
}

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly extras: ErrorExtras = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
  get status(): number {
    return ERROR_CODES[this.code].status;
  }
}

export const DOCS_PATH = '/api/v1/docs/errors';

export interface ErrorBody {
  error: { code: ErrorCode; message: string; docs: string } & ErrorExtras;
  required_tier?: string;
  retry_after?: number;
}

export function errorBody(code: ErrorCode, message: string, extras: ErrorExtras = {}): ErrorBody {
  const body: ErrorBody = { error: { code, message, docs: `${DOCS_PATH}#${code}`, ...extras } };
  if (extras.required_tier !== undefined) body.required_tier = extras.required_tier;
  if (extras.retry_after !== undefined) body.retry_after = extras.retry_after;
  return body;
}
