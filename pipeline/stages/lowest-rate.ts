import type { AccountChange } from '../../schemas/index.js';

/**
 * The lowest exchange commission rate any account has set, folded from the `accounts` changelog:
 * what the opportunity engines search at besides the exchanges' own rates (search-rate.ts of
 * pipeline/opportunities). An account keeps its highest version, as the API's key store does.
 */
export class LowestAccountRate {
  private readonly accounts = new Map<string, { version: number; rate: number | null }>();
  private lowest: number | null = null;

  apply(change: AccountChange): void {
    if (change.kind !== 'account') return;
    const { id, version, exchangeCommission } = change.account;
    const known = this.accounts.get(id);
    if (known !== undefined && known.version > version) return;
    this.accounts.set(id, { version, rate: exchangeCommission ?? null });
    this.lowest = null;
    for (const a of this.accounts.values()) if (a.rate !== null && (this.lowest === null || a.rate < this.lowest)) this.lowest = a.rate;
  }

  /** The lowest rate an account has, percent; null when none has one. */
  rate(): number | null {
    return this.lowest;
  }
}
