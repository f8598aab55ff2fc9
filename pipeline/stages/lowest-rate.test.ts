import { describe, expect, it } from 'vitest';
import type { AccountChange, AccountRecord } from '../../schemas/index.js';
import { LowestAccountRate } from './lowest-rate.js';

const account = (id: string, version: number, exchangeCommission: number | null): AccountChange => {
  const record: AccountRecord = { id, name: id, createdAt: 0, version, exchangeCommission };
  return { kind: 'account', account: record };
};

describe('LowestAccountRate', () => {
  it('is the lowest rate any account has, null while none has one', () => {
    const rates = new LowestAccountRate();
    expect(rates.rate()).toBeNull();
    rates.apply(account('a', 1, null));
    expect(rates.rate()).toBeNull();
    rates.apply(account('a', 2, 3));
    rates.apply(account('b', 1, 2));
    expect(rates.rate()).toBe(2);
  });

  it('follows an account’s rate up and cleared, and ignores an older version of it', () => {
    const rates = new LowestAccountRate();
    rates.apply(account('a', 1, 3));
    rates.apply(account('b', 1, 2));
    rates.apply(account('b', 2, 5));
    expect(rates.rate()).toBe(3);
    rates.apply(account('a', 2, null));
    expect(rates.rate()).toBe(5);
    rates.apply(account('a', 1, 1));
    expect(rates.rate()).toBe(5);
  });

  it('takes nothing from key and alert-rule changes', () => {
    const rates = new LowestAccountRate();
    rates.apply({ kind: 'key', key: { accountId: 'a' } } as unknown as AccountChange);
    expect(rates.rate()).toBeNull();
  });
});
