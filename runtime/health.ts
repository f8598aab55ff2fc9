/**
 * What the runtime knows about itself beyond the API's own checks: a store found damaged at
 * start (degraded), a stage that cannot continue (down, then the process exits). Read by
 * `/health` in every role.
 */
export interface RuntimeCheck {
  status: 'ok' | 'degraded' | 'down';
  message: string;
}

export class RuntimeHealth {
  private readonly degraded: string[] = [];
  private failure: string | null = null;

  degrade(reason: string): void {
    this.degraded.push(reason);
  }

  fail(reason: string): void {
    this.failure ??= reason;
  }

  get failed(): boolean {
    return this.failure !== null;
  }

  check(): RuntimeCheck {
    if (this.failure !== null) return { status: 'down', message: this.failure };
    if (this.degraded.length > 0) return { status: 'degraded', message: this.degraded.join('; ') };
    return { status: 'ok', message: 'every stage running' };
  }
}
