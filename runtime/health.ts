import type { RuntimeCheck } from '../schemas/index.js';

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
