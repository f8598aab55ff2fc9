/**
 * Concurrent streams per account, against the tier's allowance. The stream endpoints take a
 * lease when a connection opens and release it when it closes; `/account/usage` reports the
 * count. Per replica: an account's streams on other replicas are not seen here.
 */
export class StreamLeases {
  private readonly open = new Map<string, number>();

  /** Takes a lease if the account has fewer than `max` open; false when the allowance is spent. */
  acquire(accountId: string, max: number): boolean {
    const n = this.open.get(accountId) ?? 0;
    if (n >= max) return false;
    this.open.set(accountId, n + 1);
    return true;
  }

  release(accountId: string): void {
    const n = (this.open.get(accountId) ?? 0) - 1;
    if (n <= 0) this.open.delete(accountId);
    else this.open.set(accountId, n);
  }

  active(accountId: string): number {
    return this.open.get(accountId) ?? 0;
  }
}
