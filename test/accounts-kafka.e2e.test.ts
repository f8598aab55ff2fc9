/**
 * Key changes on the server runtime: two API replicas, each with its own Kafka client (as two
 * processes would have) and one shared store, against librdkafka's mock cluster. A key made on
 * one is accepted by the other, and a revocation or a rotation's end reaches the other within a
 * second; a replica started later loads every key.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { startAccounts } from '../api/accounts/index.js';
import { KafkaBus } from '../pipeline/bus/index.js';
import { ChdbStore, applyMigrations } from '../pipeline/store/index.js';
import { mockKafkaUnavailable, startMockKafka } from './support/mock-kafka.js';

const unavailable = mockKafkaUnavailable();
if (unavailable) console.warn(`skipping the accounts-on-Kafka test: ${unavailable}`);

async function waitFor(check: () => boolean, ms: number): Promise<number> {
  const t0 = Date.now();
  while (!check()) {
    if (Date.now() - t0 > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return Date.now() - t0;
}

describe.skipIf(unavailable !== null)('accounts on Kafka (librdkafka mock cluster)', () => {
  it('propagates creation, revocation, rotation and the account’s commission rate between replicas within a second', async () => {
    const kafka = await startMockKafka();
    const dir = mkdtempSync(join(tmpdir(), 'odds-accounts-kafka-'));
    const store = new ChdbStore(dir);
    const logger = pino({ level: 'silent' });
    const buses = [
      new KafkaBus({ brokers: kafka.brokers, sessionTimeoutMs: 6000 }),
      new KafkaBus({ brokers: kafka.brokers, sessionTimeoutMs: 6000 }),
      new KafkaBus({ brokers: kafka.brokers, sessionTimeoutMs: 6000 }),
    ];
    const [busA, busB, busC] = buses as [KafkaBus, KafkaBus, KafkaBus];
    try {
      await applyMigrations(store);
      const a = await startAccounts({ bus: busA, store, replicaId: 'a', logger });
      const b = await startAccounts({ bus: busB, store, replicaId: 'b', logger });
      const account = await a.accounts.createAccount('Acme');
      const first = await a.accounts.createKey(account.id, { tier: 'pro', name: 'first' });
      // The first record also waits for B's consumer group to join: generous.
      await waitFor(() => b.keys.lookup(first.secret) !== undefined, 20_000);

      const second = await a.accounts.createKey(account.id, { tier: 'pro', name: 'second' });
      expect(await waitFor(() => b.keys.lookup(second.secret) !== undefined, 1000)).toBeLessThan(1000);

      await a.accounts.revokeKey(first.record.id);
      expect(a.keys.lookup(first.secret)).toBeUndefined();
      expect(await waitFor(() => b.keys.lookup(first.secret) === undefined, 1000)).toBeLessThan(1000);

      const rotation = await b.accounts.rotateKey(second.record.id, { graceHours: 0 });
      expect(
        await waitFor(() => a.keys.lookup(second.secret) === undefined && a.keys.lookup(rotation?.next.secret ?? '') !== undefined, 1000),
      ).toBeLessThan(1000);

      // The account's own exchange commission rate travels the same way.
      await a.accounts.setExchangeCommission(account.id, 2.5);
      expect(await waitFor(() => b.keys.account(account.id)?.exchangeCommission === 2.5, 1000)).toBeLessThan(1000);

      // A replica started now loads every key from the store, revocations included, and the rate.
      const c = await startAccounts({ bus: busC, store, replicaId: 'c', logger });
      expect(c.keys.account(account.id)?.exchangeCommission).toBe(2.5);
      expect([c.keys.lookup(first.secret), c.keys.lookup(second.secret), c.keys.lookup(rotation?.next.secret ?? '')?.tier]).toEqual([
        undefined,
        undefined,
        'pro',
      ]);
      await Promise.all([a.stop(), b.stop(), c.stop()]);
    } finally {
      await Promise.all(buses.map((x) => x.close()));
      await store.close();
      kafka.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
