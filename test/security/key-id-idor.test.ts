/**
 * Key ids travel in URLs (`/account/keys/{keyId}`, `/rotate`), so they must not be capabilities:
 * another account's key id is as unknown as a made-up one, 404 with the same message, on revoke
 * and on rotate, and the key keeps working. This holds today; the test keeps it that way.
 */
import { describe, expect, it } from 'vitest';
import { conformanceForFile } from '../support/fixture.js';
import type { Conformance } from '../support/fixture.js';

type Row = Record<string, unknown>;
let c: Conformance;
conformanceForFile((running) => {
  c = running;
});

async function api(method: string, path: string, key: string, body?: unknown): Promise<{ status: number; body: Row }> {
  const answer = await c.sys.send(method, `/api/v1${path}`, { key, ...(body === undefined ? {} : { body }), timeoutMs: 5000 });
  return { status: answer.status, body: answer.body };
}

const notFound = (id: string): { status: number; body: Row } => ({
  status: 404,
  body: { error: { code: 'not_found', message: `No key '${id}' in this account`, docs: '/api/v1/docs/errors#not_found' } },
});

describe("another account's key id", () => {
  it('is 404 on revoke and on rotate, exactly like an id that does not exist, and the key keeps working', async () => {
    const owner = c.sys.demoKeys.sharp;
    const attacker = c.sys.demoKeys.enterprise;
    expect(c.sys.keys.lookup(owner)?.accountId).not.toBe(c.sys.keys.lookup(attacker)?.accountId);
    const created = await api('POST', '/account/keys', owner, { name: 'victim' });
    expect(created.status).toBe(201);
    const victim = created.body['data'] as Row;
    const id = String(victim['id']);
    const ownersKeys = (await api('GET', '/account/keys', owner)).body['data'];

    expect(await api('DELETE', `/account/keys/${id}`, attacker)).toEqual(notFound(id));
    expect(await api('POST', `/account/keys/${id}/rotate`, attacker, {})).toEqual(notFound(id));
    expect(await api('POST', `/account/keys/${id}/rotate`, attacker, { gracePeriodHours: 72, name: 'mine now' })).toEqual(notFound(id));
    // Indistinguishable from a guess: the same status and message shape, so ids cannot be probed.
    const made = `${id.slice(0, -4)}zzzz`;
    expect(await api('DELETE', `/account/keys/${made}`, attacker)).toEqual(notFound(made));

    expect(((await api('GET', '/account/keys', attacker)).body['data'] as Row[]).map((k) => k['id'])).not.toContain(id);
    expect((await api('GET', '/account/keys', owner)).body['data']).toEqual(ownersKeys);
    expect((await api('GET', '/sports', String(victim['key']))).status).toBe(200);
  });

  it('is refused by id whatever the id looks like (prototype names, traversal), never a 5xx', async () => {
    const attacker = c.sys.demoKeys.enterprise;
    for (const id of ['__proto__', 'constructor', 'hasOwnProperty', '..', '..%2F..%2Faccount']) {
      for (const [method, path] of [
        ['DELETE', `/account/keys/${id}`],
        ['POST', `/account/keys/${id}/rotate`],
      ] as const) {
        const r = await api(method, path, attacker, method === 'POST' ? {} : undefined);
        expect([method, id, r.status < 500, [400, 404].includes(r.status)]).toEqual([method, id, true, true]);
      }
    }
  });
});
