import type { AccountRecord } from '../../schemas/index.js';
import type { KeyStore } from '../accounts/index.js';

/** Told the account's record when its own exchange commission rate changed. */
export type RateFollower = (account: AccountRecord) => void;

/**
 * The open streams that price at their account's own commission rate (they named no
 * `commission`), by account: when a change to the account's rate is applied on this replica
 * (its own `PATCH /account`, or another replica's through the accounts topic), each is told, and
 * moves to a subscription at the new rate.
 */
export class AccountRates {
  private readonly followers = new Map<string, Set<RateFollower>>();
  private readonly unsubscribe: () => void;

  constructor(
    keys: KeyStore,
    /** Told when moving one stream throws: the others still move, and the account change being applied is not failed by it. */
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {
    this.unsubscribe = keys.onAccountChange((before, after) => {
      if ((before?.exchangeCommission ?? null) === (after.exchangeCommission ?? null)) return;
      for (const follow of [...(this.followers.get(after.id) ?? [])]) {
        try {
          follow(after);
        } catch (err) {
          this.onError(err);
        }
      }
    });
  }

  /** Follows the account's rate until the returned function is called. */
  follow(accountId: string, follower: RateFollower): () => void {
    let set = this.followers.get(accountId);
    if (!set) this.followers.set(accountId, (set = new Set()));
    set.add(follower);
    return () => {
      set.delete(follower);
      if (set.size === 0 && this.followers.get(accountId) === set) this.followers.delete(accountId);
    };
  }

  close(): void {
    this.unsubscribe();
    this.followers.clear();
  }
}
