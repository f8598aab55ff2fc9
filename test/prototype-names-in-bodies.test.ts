/**
 * What went wrong, in bodies: a batch whose `event_ids` held "__proto__" answered 200 with that
 * id silently missing from `data` (assigning `data["__proto__"]` set the object's prototype
 * instead of a key), and a body with a `__proto__` key was refused as "not valid JSON", which
 * it is. Now the batch result has no prototype, so every requested id is a key of `data`, and a
 * body key named after a prototype member is refused with 400 naming it.
 */
import { describe, expect, it } from 'vitest';
import { conformanceForFile, fixtureEventId } from './support/fixture.js';
import type { Conformance } from './support/fixture.js';
import { PROTOTYPE_NAMES } from './support/prototype-names.js';

type Row = Record<string, unknown>;
let c: Conformance;
let eventId = '';
conformanceForFile(async (started) => {
  c = started;
  eventId = await fixtureEventId(c, 'nba');
});

describe('prototype names in JSON bodies', () => {
  it('lists every requested event id in the batch data, prototype names included, each as missing', async () => {
    const names = PROTOTYPE_NAMES.slice(0, 12);
    for (let i = 0; i < names.length; i += 4) {
      const ids = [eventId, ...names.slice(i, i + 4)];
      const r = await c.sys.post('/api/v1/odds/batch', { event_ids: ids }, c.keys.sharp);
      expect(r.status).toBe(200);
      const data = r.body['data'] as Row;
      expect(Object.keys(data).sort()).toEqual([...ids].sort());
      for (const name of names.slice(i, i + 4)) expect([name, data[name]]).toEqual([name, []]);
      expect((data[eventId] as Row[]).length).toBeGreaterThan(0);
      expect((r.body['meta'] as Row)['missing']).toEqual(names.slice(i, i + 4));
    }
  });

  it('refuses a body key named __proto__, constructor or prototype with 400 naming the key, at any depth', async () => {
    const bodies: [string, string][] = [
      ['__proto__', `{"event_ids":["${eventId}"],"__proto__":{"polluted":true}}`],
      ['constructor', `{"event_ids":["${eventId}"],"constructor":{"prototype":{"polluted":true}}}`],
      ['__proto__', `{"event_ids":["${eventId}"],"market":"moneyline","x":[{"__proto__":1}]}`],
    ];
    for (const [key, body] of bodies) {
      const r = await c.sys.post('/api/v1/odds/batch', body, c.keys.sharp);
      expect([r.status, r.body['error']]).toEqual([
        400,
        {
          code: 'invalid_request',
          message: `Invalid body field '${key}': not a field of this API (a reserved name)`,
          docs: '/api/v1/docs/errors#invalid_request',
        },
      ]);
      expect(r.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(({} as Row)['polluted']).toBeUndefined();
  });

  it('still names a plain unknown body field as such', async () => {
    const r = await c.sys.post('/api/v1/odds/batch', { event_ids: [eventId], toString: 'x' }, c.keys.sharp);
    expect([r.status, (r.body['error'] as Row)['message']]).toEqual([400, "Invalid body: must NOT have additional property 'toString'"]);
  });
});
