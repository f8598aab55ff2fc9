/**
 * Attack: mint working keys by rotating with a grace period.
 *
 * What went wrong: POST /account/keys/{id}/rotate with {"gracePeriodHours":72}, three times from
 * the newest key of a hobby account, left 4 keys that all answered 200 (meta: count 4, active 1,
 * max_keys 1), each with its own rate-limit window and stream slots; rotating the same key twice
 * gave it two successors. A key in its grace period did not count against the cap.
 *
 * Now a key is rotated once (409 conflict naming its successor), an account holds at most one key
 * in a grace period per active key (409 conflict naming the keys in grace), a key in its grace
 * period counts against the key cap, and concurrent rotations of one key cannot all pass.
 */
import { describe, expect, it } from 'vitest';
import { conformanceForFile } from '../support/fixture.js';
import type { Conformance } from '../support/fixture.js';

type Row = Record<string, unknown>;
let c: Conformance;
conformanceForFile((started) => {
  c = started;
});

async function api(method: string, path: string, key: string, body?: unknown): Promise<{ status: number; body: Row }> {
  const answer = await c.sys.send(method, `/api/v1${path}`, { key, ...(body === undefined ? {} : { body }) });
  return { status: answer.status, body: answer.body };
}

/** A hobby account with its one key, as a signed-up user holds it. */
async function hobbyAccount(): Promise<{ id: string; secret: string }> {
  const account = await c.sys.accounts.createAccount('hobbyist');
  const { record, secret } = await c.sys.accounts.createKey(account.id, { tier: 'hobby', name: 'main' });
  return { id: record.id, secret };
}

const rotate = (id: string, key: string, gracePeriodHours: number): Promise<{ status: number; body: Row }> =>
  api('POST', `/account/keys/${id}/rotate`, key, { gracePeriodHours });
const newKeyOf = (r: { body: Row }): { id: string; secret: string } => {
  const k = (r.body['data'] as Row)['new_key'] as Row;
  return { id: k['id'] as string, secret: k['key'] as string };
};
const error = (r: { body: Row }): Row => r.body['error'] as Row;

describe('rotating with a grace period', () => {
  it('three times from the newest key leaves two working keys, not four', async () => {
    const first = await hobbyAccount();
    const r1 = await rotate(first.id, first.secret, 72);
    expect(r1.status).toBe(200);
    const second = newKeyOf(r1);

    const r2 = await rotate(second.id, second.secret, 72);
    expect([r2.status, error(r2)['code']]).toEqual([409, 'conflict']);
    expect(error(r2)['message']).toContain(`This account already holds 1 key(s) in a rotation grace period ('${first.id}' until `);
    expect(error(r2)['docs']).toBe('/api/v1/docs/errors#conflict');
    expect((await rotate(second.id, second.secret, 72)).status).toBe(409);

    const list = await api('GET', '/account/keys', second.secret);
    expect(list.body['meta']).toEqual({ count: 2, total: 2, active: 2, max_keys: 1 });
    expect((await api('GET', '/sports', first.secret)).status).toBe(200);
    expect((await api('GET', '/sports', second.secret)).status).toBe(200);
  });

  it('refuses a second rotation of the same key with 409, naming its successor', async () => {
    const first = await hobbyAccount();
    const successor = newKeyOf(await rotate(first.id, first.secret, 1));
    for (const grace of [72, 0]) {
      const again = await rotate(first.id, first.secret, grace);
      expect([again.status, error(again)['code'], error(again)['message']]).toEqual([
        409,
        'conflict',
        `Key '${first.id}' was already rotated: its successor is '${successor.id}'; rotate that key instead`,
      ]);
    }
  });

  it('lets only one of five concurrent rotations of a key through', async () => {
    const first = await hobbyAccount();
    const answers = await Promise.all(Array.from({ length: 5 }, () => rotate(first.id, first.secret, 72)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect((await api('GET', '/account/keys', first.secret)).body['meta']).toEqual({ count: 2, total: 2, active: 2, max_keys: 1 });
  });

  it('counts the key in grace against the cap: no new key while it works, and a rotation without grace still goes', async () => {
    const first = await hobbyAccount();
    const second = newKeyOf(await rotate(first.id, first.secret, 72));
    const created = await api('POST', '/account/keys', second.secret, { name: 'extra' });
    expect([created.status, error(created)['code']]).toEqual([403, 'feature_required']);
    expect(error(created)['message']).toContain(
      'The hobby tier allows 1 active key per account, a key in a rotation grace period counting as one, and this account has 2',
    );

    // Without a grace period a rotation replaces the key at once: nothing is added, so it is never refused.
    const now = await rotate(second.id, second.secret, 0);
    expect(now.status).toBe(200);
    const third = newKeyOf(now);
    expect((await api('GET', '/sports', second.secret)).status).toBe(401);
    expect((await api('GET', '/sports', third.secret)).status).toBe(200);
    expect((await api('GET', '/account/keys', third.secret)).body['meta']).toEqual({ count: 3, total: 3, active: 2, max_keys: 1 });
    // The replacement inherits no extra grace slot.
    expect((await rotate(third.id, third.secret, 72)).status).toBe(409);
  });
});
