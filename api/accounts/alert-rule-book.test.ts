import { describe, expect, it } from 'vitest';
import type { AlertRuleRecord } from '../../schemas/index.js';
import { KeyStore } from './key-store.js';

const rule = (over: Partial<AlertRuleRecord> = {}): AlertRuleRecord => ({
  id: 'alert_1',
  accountId: 'acct_1',
  keyId: 'key_1',
  tier: 'pro',
  name: null,
  kind: 'ev',
  filtersJson: '{}',
  webhookUrl: 'https://hooks.example.com/odds',
  secret: 'whsec_1',
  createdAt: 1000,
  updatedAt: 1000,
  active: true,
  deletedAt: null,
  version: 1000,
  ...over,
});

describe("a replica's alert rules (kept with the keys)", () => {
  it('applies rule changes by version: a late or repeated one changes nothing, a deleted rule never comes back', () => {
    const keys = new KeyStore();
    const seen: [boolean | undefined, boolean][] = [];
    keys.rules.onChange((before, after) => seen.push([before?.active, after.active]));
    keys.apply({ kind: 'alert_rule', rule: rule() });
    keys.apply({ kind: 'alert_rule', rule: rule({ active: false, deletedAt: 2000, version: 2000 }) });
    keys.apply({ kind: 'alert_rule', rule: rule({ version: 1500 }) });
    keys.apply({ kind: 'alert_rule', rule: rule({ name: 'revived', version: 3000 }) });
    expect(keys.rules.rule('alert_1')).toMatchObject({ active: false, deletedAt: 2000, name: 'revived', version: 3000 });
    expect(keys.rules.activeOf('acct_1')).toEqual([]);
    expect(seen).toEqual([
      [undefined, true],
      [true, false],
      [false, false],
    ]);
    expect(keys.size).toBe(0);
  });

  it("lists an account's rules oldest first, and only its own", () => {
    const keys = new KeyStore();
    keys.apply({ kind: 'alert_rule', rule: rule({ id: 'alert_b', createdAt: 2000 }) });
    keys.apply({ kind: 'alert_rule', rule: rule({ id: 'alert_a', createdAt: 3000 }) });
    keys.apply({ kind: 'alert_rule', rule: rule({ id: 'alert_c', accountId: 'acct_2' }) });
    expect(keys.rules.activeOf('acct_1').map((r) => r.id)).toEqual(['alert_b', 'alert_a']);
    expect(
      keys.rules
        .active()
        .map((r) => r.id)
        .sort(),
    ).toEqual(['alert_a', 'alert_b', 'alert_c']);
  });
});
