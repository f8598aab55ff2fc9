/**
 * What the runtime knows about itself beyond the API's own checks: a store found damaged at
 * start (degraded), a stage that cannot continue (down, then the process exits). The
 * `checks.runtime` of `/health` in every role: the pipeline process and the API both answer it.
 */
export interface RuntimeCheck {
  status: 'ok' | 'degraded' | 'down';
  message: string;
}
