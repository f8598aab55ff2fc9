import { describe, expect, it } from 'vitest';
import type { AccountRecord } from '../../schemas/index.js';
import { KeyStore } from '../accounts/index.js';
import { AccountRates } from './account-rates.js';

const account = (id: string, version: number, exchangeCommission: number | null): AccountRecord => ({
  id,
  name: id,
  createdAt: 0,
  version,
  exchangeCommission,
});

describe('streams following their account’s commission rate', () => {
  it('tells the account’s followers its new rate, and only when the rate changed', () => {
    const keys = new KeyStore();
    const rates = new AccountRates(keys);
    keys.apply({ kind: 'account', account: account('a', 1, null) });
    const told: (number | null)[] = [];
    const other: (number | null)[] = [];
    const unfollow = rates.follow('a', (r) => told.push(r.exchangeCommission));
    rates.follow('b', (r) => other.push(r.exchangeCommission));
    keys.apply({ kind: 'account', account: account('a', 2, 2) });
    // The same change again (this replica's write, then the topic's copy), and a name change: no new rate.
    keys.apply({ kind: 'account', account: account('a', 2, 2) });
    keys.apply({ kind: 'account', account: { ...account('a', 3, 2), name: 'renamed' } });
    // An older version than the one held is not applied.
    keys.apply({ kind: 'account', account: account('a', 1, 7) });
    keys.apply({ kind: 'account', account: account('a', 4, null) });
    unfollow();
    keys.apply({ kind: 'account', account: account('a', 5, 3) });
    expect([told, other]).toEqual([[2, null], []]);
  });

  it('moves the other followers when one throws, and reports the failure', () => {
    const keys = new KeyStore();
    const errors: unknown[] = [];
    const rates = new AccountRates(keys, (err) => errors.push(err));
    const told: number[] = [];
    rates.follow('a', () => {
      throw new Error('socket gone');
    });
    rates.follow('a', (r) => told.push(r.exchangeCommission ?? -1));
    keys.apply({ kind: 'account', account: account('a', 1, 2) });
    expect([told, errors.map((e) => (e as Error).message)]).toEqual([[2], ['socket gone']]);
  });
});
