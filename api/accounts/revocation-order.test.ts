// Bug (issue 36's chaos run, 2026-11-29): a revocation was written to the store, and only once the
// store's insert had returned was it published on the accounts topic, the path by which every
// other replica learns of it; the request then answered 975 ms after it was sent at load 17, and the
// other replica's streams ended 1,175 ms after it, past the one-second promise counted from the
// request. The two writes now run at once and the answer still waits for both. And a revocation
// whose store write failed (503, "retry shortly") was found revoked by the retry, which then wrote
// nothing: the store never held it, and a replica restarted later would accept the key again.
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryBus } from '../../pipeline/bus/index.js';
import { StoreError } from '../../pipeline/store/index.js';
import type { OlapStore, StoreRow } from '../../pipeline/store/index.js';
import { startAccounts } from './accounts.js';
import type { AccountsReplica } from './accounts.js';

const logger = pino({ level: 'silent' });
/** The keys' clock: a key made now has version NOW, its revocation NOW + 1. */
const NOW = Date.UTC(2026, 10, 29, 21);

/**
 * A store that loads nothing and keeps what is inserted into `api_keys`; while `hold()` is in
 * force those inserts wait for `release()`, and `failNext()` makes the next one fail as an
 * unreachable ClickHouse does.
 */
function gatedStore(): {
  store: OlapStore;
  keyRows: StoreRow[];
  hold(): void;
  release(): void;
  failNext(): void;
} {
  const keyRows: StoreRow[] = [];
  let gate: Promise<void> = Promise.resolve();
  let open: () => void = () => undefined;
  let failing = false;
  const store: OlapStore = {
    kind: 'clickhouse',
    exec: async () => undefined,
    insert: async (table, rows) => {
      if (table !== 'api_keys') return;
      await gate;
      if (failing) {
        failing = false;
        throw new StoreError('connect ECONNREFUSED 127.0.0.1:8123', true);
      }
      keyRows.push(...rows);
    },
    query: async () => [],
    close: async () => undefined,
  };
  return {
    store,
    keyRows,
    hold: () => {
      gate = new Promise((resolve) => (open = resolve));
    },
    release: () => open(),
    failNext: () => {
      failing = true;
    },
  };
}

/** Waits until `what` holds (the in-process bus delivers on its own turns), at most 5 s. */
async function until(what: () => boolean, description: string): Promise<void> {
  const end = Date.now() + 5000;
  while (!what()) {
    if (Date.now() > end) throw new Error(`never: ${description}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const replicas: AccountsReplica[] = [];
const buses: MemoryBus[] = [];
afterEach(async () => {
  await Promise.all(replicas.splice(0).map((r) => r.stop()));
  await Promise.all(buses.splice(0).map((b) => b.close()));
});

async function twoReplicas(store: OlapStore): Promise<[AccountsReplica, AccountsReplica]> {
  const bus = new MemoryBus();
  buses.push(bus);
  const a = await startAccounts({ bus, store, replicaId: 'a', logger, now: () => NOW });
  const b = await startAccounts({ bus, store, replicaId: 'b', logger, now: () => NOW });
  replicas.push(a, b);
  return [a, b];
}

describe('a key revoked on one replica', () => {
  it('reaches the other replica while the store is still writing it, and is answered only once stored', async () => {
    const gated = gatedStore();
    const [a, b] = await twoReplicas(gated.store);
    const account = await a.accounts.createAccount('Acme');
    const key = await a.accounts.createKey(account.id, { tier: 'pro', name: 'first' });
    await until(() => b.keys.status(key.record.id) === 'active', 'the new key reached replica b');

    gated.hold();
    let answered = false;
    const revoking = a.accounts.revokeKey(key.record.id).then((record) => {
      answered = true;
      return record;
    });
    await until(() => b.keys.status(key.record.id) === 'revoked', 'replica b learned of the revocation');
    expect(b.keys.lookup(key.secret)).toBeUndefined();
    expect(answered).toBe(false);
    expect(gated.keyRows.map((r) => [r['id'], r['active']])).toEqual([[key.record.id, true]]);

    gated.release();
    const revoked = await revoking;
    expect(revoked?.active).toBe(false);
    expect(gated.keyRows.map((r) => [r['id'], r['active']])).toEqual([
      [key.record.id, true],
      [key.record.id, false],
    ]);
    expect(a.keys.status(key.record.id)).toBe('revoked');
  });

  it('answers a failed store write with its error, and asked again writes the revocation to the store', async () => {
    const gated = gatedStore();
    const [a, b] = await twoReplicas(gated.store);
    const account = await a.accounts.createAccount('Acme');
    const key = await a.accounts.createKey(account.id, { tier: 'pro', name: 'first' });

    gated.failNext();
    await expect(a.accounts.revokeKey(key.record.id)).rejects.toThrow('connect ECONNREFUSED 127.0.0.1:8123');
    // Published all the same: in force on every running replica, this one included.
    await until(() => b.keys.status(key.record.id) === 'revoked', 'replica b learned of the revocation');
    expect(a.keys.status(key.record.id)).toBe('revoked');
    expect(gated.keyRows.map((r) => r['active'])).toEqual([true]);

    const again = await a.accounts.revokeKey(key.record.id);
    expect(again?.active).toBe(false);
    expect(gated.keyRows.map((r) => [r['active'], r['version']])).toEqual([
      [true, NOW],
      [false, NOW + 1],
    ]);
  });
});
