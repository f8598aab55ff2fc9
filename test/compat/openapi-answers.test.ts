/**
 * Our OpenAPI document as a client generated from it would hold us to it: every path it lists
 * is called on a running system with data (every opportunity kind on the board), and each answer
 * is validated against the document's own response schema for its status, made strict: no field
 * the document does not declare, every required one present, and no null where the declared
 * type does not allow one (a field sent as null but typed `string` fails here).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConformance } from '../support/fixture.js';
import type { Conformance } from '../support/fixture.js';
import { opportunityTicks } from '../support/opportunity-ticks.js';
import { validatorFor } from '../support/strict-schema.js';

type Row = Record<string, unknown>;
interface Operation {
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
}
type Document = { paths: Record<string, Record<string, Operation>> };

/** Paths whose answers are not JSON documents: checked by their own suites. */
const NOT_JSON = new Map([
  ['/api/v1/deeplink/{id}', 'a 302 redirect'],
  ['/api/v1/session', 'browser sign-in with a cookie'],
  ['/api/v1/mcp', 'JSON-RPC over Streamable HTTP'],
  ['/api/v1/stream', 'Server-Sent Events'],
  ['/api/v1/stream/odds', 'Server-Sent Events'],
  ['/api/v1/stream/opportunities', 'Server-Sent Events'],
  ['/api/v1/stream/all', 'Server-Sent Events'],
  ['/api/v1/stream/gamestate', 'Server-Sent Events'],
  ['/api/v1/stream/splits', 'Server-Sent Events'],
  ['/api/v1/stream/alerts', 'Server-Sent Events'],
  ['/api/v1/stream/events/{eventId}', 'Server-Sent Events'],
]);

let c: Conformance;
let doc: Document;
let key: string;
let since = '';
const checked = new Set<string>();
const failures: string[] = [];

beforeAll(async () => {
  c = await startConformance();
  key = c.keys.enterprise;
  since = ((await c.sys.get('/api/v1/odds?limit=1', key)).body['meta'] as Row)['next_since'] as string;
  await c.push(opportunityTicks(c.ticks));
  doc = (await c.sys.get('/api/v1/openapi.json')).body as unknown as Document;
});
afterAll(async () => {
  await c.sys.close();
});

/** Calls `method path` and validates the answer against the document, under the path's template. */
async function check(template: string, method: 'get' | 'post' | 'delete', path: string, body?: unknown): Promise<Row> {
  const r =
    method === 'get'
      ? await c.sys.get(path, key)
      : method === 'post'
        ? await c.sys.post(path, body ?? {}, key)
        : await c.sys.send('DELETE', path, { key });
  checked.add(`${method} ${template}`);
  const schema = doc.paths[template]?.[method]?.responses[String(r.status)]?.content?.['application/json']?.schema;
  if (r.status >= 300) failures.push(`${method} ${path}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
  else if (!schema) failures.push(`${method} ${path}: the document has no JSON schema for ${r.status}`);
  else {
    const validate = validatorFor(schema);
    if (!validate(r.body))
      failures.push(
        `${method} ${path}: ${(validate.errors ?? [])
          .slice(0, 4)
          .map((e) => `${e.instancePath} ${e.message ?? ''} ${JSON.stringify(e.params)}`)
          .join('; ')}`,
      );
  }
  return r.body;
}

describe('live answers against our own OpenAPI document (strict)', () => {
  it('every JSON path answers what the document declares, nulls included', async () => {
    const get = (template: string, path = template): Promise<Row> => check(template, 'get', path);
    const events = (await get('/api/v1/events'))['data'] as Row[];
    const nba = events.find((e) => e['league'] === 'nba')?.['id'] as string;
    await get('/api/v1/health');
    await get('/api/v1/sports');
    await get('/api/v1/sports/{sportId}', '/api/v1/sports/basketball');
    await get('/api/v1/leagues');
    await get('/api/v1/leagues/{leagueId}', '/api/v1/leagues/nba');
    await get('/api/v1/sportsbooks');
    await get('/api/v1/sportsbooks/{bookId}', '/api/v1/sportsbooks/draftkings');
    await get('/api/v1/markets');
    await get('/api/v1/teams', '/api/v1/teams?league=nba');
    await get('/api/v1/events/{eventId}', `/api/v1/events/${nba}`);
    await get('/api/v1/events/{eventId}/markets', `/api/v1/events/${nba}/markets`);
    await get('/api/v1/events/{eventId}/odds', `/api/v1/events/${nba}/odds`);
    await get('/api/v1/events/{eventId}/history', `/api/v1/events/${nba}/history`);
    await get('/api/v1/odds');
    await get('/api/v1/odds/best');
    await get('/api/v1/odds/comparison', `/api/v1/odds/comparison?event=${nba}`);
    const delta = await get('/api/v1/odds/delta', `/api/v1/odds/delta?since=${encodeURIComponent(since)}`);
    expect((delta['data'] as Row[]).length).toBeGreaterThan(0);
    await check('/api/v1/odds/batch', 'post', '/api/v1/odds/batch', { event_ids: [nba] });
    await get('/api/v1/odds/closing', `/api/v1/odds/closing?event_id=${nba}`);
    await get('/api/v1/opportunities/ev');
    await get('/api/v1/opportunities/ev/history');
    await get('/api/v1/opportunities/arbitrage');
    const middles = (await get('/api/v1/opportunities/middles'))['data'] as Row[];
    await get('/api/v1/opportunities/middles/summary');
    await get('/api/v1/opportunities/middles/{id}', `/api/v1/opportunities/middles/${middles[0]?.['id'] as string}`);
    await get('/api/v1/opportunities/low_hold');
    await get('/api/v1/opportunities/low-hold');
    await get('/api/v1/splits');
    await get('/api/v1/splits/history', `/api/v1/splits/history?event_id=${nba}`);
    await get('/api/v1/gamestate');
    await get('/api/v1/gamestate/{sport}', '/api/v1/gamestate/basketball');
    const today = new Date(c.clock.now()).toISOString().slice(0, 10);
    await get('/api/v1/historical/odds/closing', `/api/v1/historical/odds/closing?date=${today}&sport=basketball&league=nba`);
    await get('/api/v1/historical/clv');
    const futures = (await get('/api/v1/futures'))['data'] as Row[];
    const future = (futures[0]?.['market_id'] ?? futures[0]?.['id'] ?? 'none') as string;
    await get('/api/v1/futures/odds', `/api/v1/futures/odds?future_id=${encodeURIComponent(future)}`);
    await get('/api/v1/futures/ev');
    await get('/api/v1/freshness');
    await get('/api/v1/fair', `/api/v1/fair?event=${nba}&market=moneyline`);
    await get('/api/v1/events/{id}/fair', `/api/v1/events/${nba}/fair`);
    const odds = (await c.sys.get('/api/v1/odds?limit=5', key)).body['data'] as Row[];
    await check('/api/v1/deeplinks/batch', 'post', '/api/v1/deeplinks/batch', { ids: odds.map((o) => o['id']) });
    const upcoming = events.find((e) => Date.parse(e['start_time'] as string) > c.clock.now())?.['id'] as string;
    const prematch = ((await c.sys.get(`/api/v1/odds?event=${upcoming}&limit=1`, key)).body['data'] as Row[])[0];
    const logged = await check('/api/v1/bets', 'post', '/api/v1/bets', { odds_row_id: prematch?.['id'], stake: 10 });
    const bet = (logged['data'] ?? {}) as Row;
    await get('/api/v1/bets');
    await get('/api/v1/bets/summary');
    await check('/api/v1/bets/{id}', 'delete', `/api/v1/bets/${bet['id'] as string}`);
    await get('/api/v1/account');
    await get('/api/v1/account/usage');
    await get('/api/v1/account/keys');
    const made = (await check('/api/v1/account/keys', 'post', '/api/v1/account/keys', { name: 'openapi check' }))['data'] as Row;
    const rotated = (await check('/api/v1/account/keys/{keyId}/rotate', 'post', `/api/v1/account/keys/${made['id'] as string}/rotate`, {}))[
      'data'
    ] as Row;
    const newKey = (rotated['new_key'] as Row | undefined)?.['id'] ?? rotated['new_key_id'];
    await check('/api/v1/account/keys/{keyId}', 'delete', `/api/v1/account/keys/${newKey as string}`);
    const rule = (
      await check('/api/v1/alerts', 'post', '/api/v1/alerts', {
        kind: 'ev',
        webhook_url: 'https://hooks.example.com/odds',
        name: 'openapi check',
      })
    )['data'] as Row;
    await get('/api/v1/alerts');
    await get('/api/v1/alerts/{alertId}', `/api/v1/alerts/${rule['id'] as string}`);
    await get('/api/v1/alerts/{alertId}/deliveries', `/api/v1/alerts/${rule['id'] as string}/deliveries`);
    await check('/api/v1/alerts/{alertId}', 'delete', `/api/v1/alerts/${rule['id'] as string}`);

    expect(failures).toEqual([]);
    const listed = Object.entries(doc.paths).flatMap(([p, item]) =>
      Object.keys(item)
        .filter((m) => ['get', 'post', 'delete'].includes(m) && !NOT_JSON.has(p))
        .map((m) => `${m} ${p}`),
    );
    expect(listed.filter((op) => !checked.has(op))).toEqual([]);
  });
});
