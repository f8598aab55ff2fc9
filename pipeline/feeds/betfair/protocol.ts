/**
 * The Betfair Exchange Stream API's wire vocabulary: one JSON object per CRLF-terminated line
 * over TLS. What the client sends (`authentication`, `marketSubscription`, `heartbeat`) is built
 * here; what the server sends is read by the decoder (`decoder.ts`).
 */

/** The data a subscription asks for: best offers, traded ladder and volume, last traded price, definition. */
export const DEFAULT_MARKET_FIELDS: readonly string[] = ['EX_ALL_OFFERS', 'EX_TRADED', 'EX_TRADED_VOL', 'EX_LTP', 'EX_MARKET_DEF'];

export interface MarketFilter {
  eventTypeIds?: readonly string[];
  marketTypes?: readonly string[];
  countryCodes?: readonly string[];
  marketIds?: readonly string[];
}

export interface MarketDataFilter {
  fields: readonly string[];
  /** Ladder depth of `EX_BEST_OFFERS` (1 to 10); unused with `EX_ALL_OFFERS`. */
  ladderLevels?: number;
}

/** Where a subscription resumes: both clocks of the last applied change, or none for a fresh image. */
export interface StreamClocks {
  initialClk: string | null;
  clk: string | null;
}

export function authenticationRequest(id: number, appKey: string, session: string): Record<string, unknown> {
  return { op: 'authentication', id, appKey, session };
}

export function marketSubscriptionRequest(
  id: number,
  marketFilter: MarketFilter,
  marketDataFilter: MarketDataFilter,
  clocks: StreamClocks,
  heartbeatMs: number,
): Record<string, unknown> {
  const resume = clocks.initialClk !== null && clocks.clk !== null ? { initialClk: clocks.initialClk, clk: clocks.clk } : {};
  return { op: 'marketSubscription', id, segmentationEnabled: true, heartbeatMs, ...resume, marketFilter, marketDataFilter };
}

export function heartbeatRequest(id: number): Record<string, unknown> {
  return { op: 'heartbeat', id };
}

/** One request on the wire: JSON and the CRLF that ends every message. */
export function frame(request: Record<string, unknown>): string {
  return `${JSON.stringify(request)}\r\n`;
}

/** The server's answer to a request (or an unsolicited error before it closes the connection). */
export interface StatusMessage {
  id: number | null;
  statusCode: 'SUCCESS' | 'FAILURE';
  errorCode: string | null;
  errorMessage: string | null;
  connectionClosed: boolean;
}

/**
 * Error codes after which the same request can succeed later: the server was busy, limited or
 * timed out. Everything else (a bad app key or session, no permission, a malformed request)
 * needs an operator and is not retried.
 */
const RETRYABLE_ERRORS: ReadonlySet<string> = new Set([
  'TOO_MANY_REQUESTS',
  'TIMEOUT',
  'UNEXPECTED_ERROR',
  'CONNECTION_FAILED',
  'MAX_CONNECTION_LIMIT_EXCEEDED',
  'SUBSCRIPTION_LIMIT_EXCEEDED',
]);

/** Error codes saying the session token is missing or no longer valid: a new login can mend them, nothing else can. */
const SESSION_ERRORS: ReadonlySet<string> = new Set(['NO_SESSION', 'INVALID_SESSION_INFORMATION']);

export function isSessionFailure(errorCode: string | null): boolean {
  return errorCode !== null && SESSION_ERRORS.has(errorCode);
}

/** `retry`: reconnect after a backoff; `resubscribe-fresh`: reconnect without clocks; `fatal`: stop and report. */
export type FailureAction = 'retry' | 'resubscribe-fresh' | 'fatal';

export function failureAction(errorCode: string | null): FailureAction {
  if (errorCode === 'INVALID_CLOCK') return 'resubscribe-fresh';
  if (errorCode === null || RETRYABLE_ERRORS.has(errorCode)) return 'retry';
  return 'fatal';
}
