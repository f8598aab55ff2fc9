// Shared: the configuration fills it (runtime/config.ts) and the API enforces it (api/plugins/http-guard.ts).
/** Limits on what one client can hold open: request timeouts, connections per address, load shedding. */
export interface HttpLimits {
  /** The whole request (headers and body) must arrive within this; else 408 and the socket closes. */
  requestTimeoutMs: number;
  /** The headers must arrive within this (at most requestTimeoutMs). */
  headersTimeoutMs: number;
  /** An idle keep-alive connection closes after this. */
  keepAliveTimeoutMs: number;
  /** Open connections one client address may hold; the next is answered 429 and closed. */
  maxConnectionsPerAddress: number;
  /** Event-loop delay (ms) above which requests are shed with 503 overloaded; 0 turns shedding off. */
  shedEventLoopDelayMs: number;
  /** Work (ms) one event-loop turn may spend on requests before the rest of the turn is shed. */
  shedTurnBudgetMs: number;
}
