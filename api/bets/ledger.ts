import type { BetRecord } from '../../schemas/index.js';

/**
 * One replica's view of every account's bets: loaded from the store at start, then kept by the
 * `bets` topic. Changes apply by version, so a change seen twice (own write, then the topic) is
 * harmless and a deleted bet never comes back. Bets are kept per account, so a lookup can only
 * ever see the asking account's own.
 */
export class BetLedger {
  private readonly byAccount = new Map<string, Map<string, BetRecord>>();

  apply(bet: BetRecord): void {
    let bets = this.byAccount.get(bet.accountId);
    if (!bets) this.byAccount.set(bet.accountId, (bets = new Map()));
    const current = bets.get(bet.id);
    // A deleted bet stays as deleted, so that an older version arriving late cannot revive it.
    if (current && (bet.version < current.version || current.deletedAt !== null)) return;
    bets.set(bet.id, bet);
  }

  /** A live (not deleted) bet of the account. */
  bet(accountId: string, id: string): BetRecord | undefined {
    const bet = this.byAccount.get(accountId)?.get(id);
    return bet && bet.deletedAt === null ? bet : undefined;
  }

  /** The account's live bets, newest placed first (id breaks ties). */
  betsOf(accountId: string): BetRecord[] {
    const bets = [...(this.byAccount.get(accountId)?.values() ?? [])].filter((b) => b.deletedAt === null);
    return bets.sort((a, b) => b.placedAt - a.placedAt || (a.id < b.id ? 1 : -1));
  }

  /** Live bets of the account: what a per-tier cap counts. */
  countOf(accountId: string): number {
    let n = 0;
    for (const b of this.byAccount.get(accountId)?.values() ?? []) if (b.deletedAt === null) n++;
    return n;
  }
}
