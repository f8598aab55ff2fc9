/**
 * What the runtime knows about itself beyond the API's own checks: a store found damaged at
 * start (degraded), a stage that cannot continue (down, then the process exits). The
 * `checks.runtime` of `/health` in every role: the pipeline process and the API both answer it.
 */
export interface RuntimeCheck {
  status: 'ok' | 'degraded' | 'down';
  message: string;
}

/** The worst of some checks' statuses, as a `/health` answer's own: `down` if any is, else `degraded` if any is, else `ok`. */
export function worstStatus(checks: readonly { status: RuntimeCheck['status'] }[]): RuntimeCheck['status'] {
  const statuses = checks.map((c) => c.status);
  return statuses.includes('down') ? 'down' : statuses.includes('degraded') ? 'degraded' : 'ok';
}
