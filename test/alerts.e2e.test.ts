import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../api/alerts/index.js';
import type { RawTick } from '../schemas/index.js';
import { ScriptedFeed } from './support/scripted-feed.js';
import { SseClient } from './support/stream-clients.js';
import { startTestSystem } from './support/system.js';
import type { TestSystem } from './support/system.js';

// Alert rules on the real system: a rule made over REST, an opportunity that then appears in the
// pipeline, the signed webhook on a 127.0.0.1 receiver, and the delivery log read back.

const START = Date.now() + 24 * 60 * 60 * 1000;
type Row = Record<string, unknown>;
const NAMES: Record<string, [string, string]> = {
  pinnacle: ['Los Angeles Lakers', 'Boston Celtics'],
  draftkings: ['LA Lakers', 'Celtics'],
};

function moneyline(book: string, home: number, away: number): RawTick[] {
  const [h, a] = NAMES[book] ?? ['', ''];
  const tick = (outcome: string, price: number): RawTick => ({
    book,
    bookEventId: `${book}-1`,
    sport: 'basketball',
    league: 'nba',
    homeTeam: h,
    awayTeam: a,
    startTime: START,
    isLive: false,
    market: 'moneyline',
    outcome,
    line: null,
    participant: null,
    statCategory: null,
    priceAmerican: price,
    status: 'open',
    ts: Date.now(),
    selectionId: null,
  });
  return [tick(h, home), tick(a, away)];
}

/** Pinnacle's home spread at `line` (the home handicap) with both prices. */
function pinnacleSpread(line: number, home: number, away: number): RawTick[] {
  return moneyline('pinnacle', home, away).map((t, i) => ({ ...t, market: 'point_spread', line: i === 0 ? line : -line }));
}

let sys: TestSystem;
let feed: ScriptedFeed;
let keys: TestSystem['demoKeys'];
let receiver: Server;
let hookUrl = '';
const received: { headers: IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  // No +EV yet: both books price the game the same.
  feed = new ScriptedFeed([...moneyline('pinnacle', -110, -110), ...moneyline('draftkings', -110, -110)]);
  sys = await startTestSystem({}, { feed: () => feed });
  keys = sys.demoKeys;
  await sys.drained();
});
afterAll(async () => {
  await sys.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

/** Polls until `done` holds, at most `ms`. */
async function until(done: () => boolean | Promise<boolean>, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const error = (r: { body: Row }): [string, string] => {
  const e = r.body['error'] as Row;
  return [String(e['code']), String(e['message'])];
};

describe('alert rules', () => {
  it("posts an opportunity that enters the rule's list to its webhook, signed, once; the delivery log shows it", async () => {
    const created = await sys.post(
      '/api/v1/alerts',
      { kind: 'ev', webhook_url: hookUrl, sport: 'basketball', min_ev: 1, name: 'nba +EV' },
      keys.pro,
    );
    expect(created.status).toBe(201);
    const rule = created.body['data'] as Row;
    expect(rule).toMatchObject({ kind: 'ev', name: 'nba +EV', webhook_url: hookUrl, filters: { sport: 'basketball', min_ev: 1 } });
    const secret = String(rule['secret']);
    expect(secret).toMatch(/^whsec_/);
    // The rule's account streams its alerts; another account's stream stays quiet.
    const own = await SseClient.open(`${sys.url}/api/v1/stream/alerts`, { 'x-api-key': keys.pro });
    const other = await SseClient.open(`${sys.url}/api/v1/stream/alerts`, { 'x-api-key': keys.sharp });
    await own.until((f) => f.some((x) => x.event === 'snapshot:complete'));
    await other.until((f) => f.some((x) => x.event === 'snapshot:complete'));

    // DraftKings' Celtics +105 against Pinnacle's -110/-110: 2.5 % +EV.
    await feed.push(moneyline('draftkings', -115, 105));
    await until(() => received.length >= 1);
    const [hit] = received;
    await own.until((f) => f.some((x) => x.event === 'alert:raised'));
    expect(own.frames.filter((x) => x.event === 'alert:raised').map((x) => x.text)).toEqual([hit?.body]);
    const body = JSON.parse(hit?.body ?? '{}') as Row;
    expect(body).toMatchObject({
      rule_id: rule['id'],
      kind: 'ev',
      data: { sportsbook: 'draftkings', odds_american: 105, ev_percentage: 2.5 },
    });
    expect(hit?.headers['idempotency-key']).toBe(body['id']);
    expect(
      verifyWebhook({
        secret,
        body: hit?.body ?? '',
        signature: String(hit?.headers['x-signature']),
        timestamp: String(hit?.headers['x-signature-timestamp']),
        nowSeconds: Math.floor(Date.now() / 1000),
      }),
    ).toBe(true);

    // A price update of the same opportunity is no new alert.
    await feed.push(moneyline('draftkings', -115, 106));
    await sys.drained();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(received).toHaveLength(1);
    expect(own.frames.filter((x) => x.event === 'alert:raised')).toHaveLength(1);
    expect(other.frames.filter((x) => x.event === 'alert:raised')).toEqual([]);
    own.close();
    other.close();

    const id = String(rule['id']);
    await until(async () => ((await sys.get(`/api/v1/alerts/${id}/deliveries`, keys.pro)).body['data'] as Row[]).length === 1);
    const log = await sys.get(`/api/v1/alerts/${id}/deliveries`, keys.pro);
    expect((log.body['data'] as Row[])[0]).toMatchObject({
      alert_id: body['id'],
      outcome: 'delivered',
      attempts: 1,
      last_status: 204,
      body: hit?.body,
    });
    const dead = await sys.get(`/api/v1/alerts/${id}/deliveries?outcome=dead_letter`, keys.pro);
    expect(dead.body['data']).toEqual([]);

    const listed = await sys.get('/api/v1/alerts', keys.pro);
    expect((listed.body['data'] as Row[]).map((r) => [r['id'], 'secret' in r])).toEqual([[id, false]]);
    expect(listed.body['meta']).toMatchObject({ count: 1, max_rules: 10 });
    expect((await sys.get(`/api/v1/alerts/${id}`, keys.pro)).body['data']).toMatchObject({ id, kind: 'ev' });
    // Another account's key does not see it.
    expect((await sys.get(`/api/v1/alerts/${id}`, keys.sharp)).status).toBe(404);

    const deleted = await sys.send('DELETE', `/api/v1/alerts/${id}`, { key: keys.pro });
    expect([deleted.status, deleted.body['data']]).toEqual([200, { id, deleted: true }]);
    expect((await sys.get(`/api/v1/alerts/${id}`, keys.pro)).status).toBe(404);
    expect((await sys.get('/api/v1/alerts', keys.pro)).body['data']).toEqual([]);
  });

  it('refuses bad input with the error envelope naming the field', async () => {
    const bad = async (body: Row, key = keys.pro): Promise<[number, string, string]> => {
      const r = await sys.post('/api/v1/alerts', body, key);
      return [r.status, ...error(r)];
    };
    expect(await bad({ kind: 'ev', webhook_url: 'http://example.com/hook' })).toEqual([
      400,
      'invalid_request',
      "Invalid body field 'webhook_url': must be https; plain http is accepted only on loopback (127.0.0.1, [::1], localhost)",
    ]);
    expect((await bad({ kind: 'ev', webhook_url: 'ftp://example.com/' }))[2]).toBe(
      "Invalid body field 'webhook_url': must be https (got ftp)",
    );
    expect((await bad({ kind: 'ev', webhook_url: 'not a url' }))[2]).toBe("Invalid body field 'webhook_url': is not an absolute URL");
    expect((await bad({ kind: 'ev', webhook_url: hookUrl, sport: 'quidditch' }))[0]).toBe(400);
    expect((await bad({ kind: 'ev', webhook_url: hookUrl, sport: 'quidditch' }))[2]).toMatch(/^Invalid body field 'sport'/);
    expect((await bad({ kind: 'ev', webhook_url: hookUrl, min_ev: 'lots' }))[2]).toMatch(/^Invalid body field 'min_ev'/);
    expect((await bad({ kind: 'parlay', webhook_url: hookUrl }))[2]).toMatch(/^Invalid body field 'kind'/);
    expect((await bad({ kind: 'ev' }))[2]).toBe("Missing required body field 'webhook_url'");
    expect((await bad({ kind: 'ev', webhook_url: hookUrl, colour: 'red' }))[0]).toBe(400);
  });

  it('makes line-move rules with their own fields, and refuses each bad one naming it', async () => {
    const made = await sys.post(
      '/api/v1/alerts',
      { kind: 'key_number', webhook_url: hookUrl, sport: 'football', market: 'spread', key_numbers: [3, 7] },
      keys.sharp,
    );
    expect([made.status, made.body['data']]).toEqual([
      201,
      expect.objectContaining({ kind: 'key_number', filters: { sport: 'football', market: 'spread', key_numbers: [3, 7] } }),
    ]);
    const rlm = await sys.post(
      '/api/v1/alerts',
      { kind: 'reverse_line_move', webhook_url: hookUrl, sportsbook: 'circa', public_by: 'handle', min_public_pct: 60, min_line_move: 1 },
      keys.sharp,
    );
    expect([rlm.status, (rlm.body['data'] as Row)['kind']]).toEqual([201, 'reverse_line_move']);
    for (const r of [made, rlm]) await sys.send('DELETE', `/api/v1/alerts/${String((r.body['data'] as Row)['id'])}`, { key: keys.sharp });

    const field = async (body: Row, key = keys.sharp): Promise<[number, string]> => {
      const r = await sys.post('/api/v1/alerts', { webhook_url: hookUrl, ...body }, key);
      if (r.status < 400) return [r.status, JSON.stringify(r.body)];
      return [r.status, /^(?:Invalid|Missing required) body field '([a-z_]+)/.exec(error(r)[1])?.[1] ?? error(r)[1]];
    };
    const keyNumber = { kind: 'key_number' };
    const rlmRule = { kind: 'reverse_line_move' };
    expect(await field({ ...keyNumber, key_numbers: ['three'] })).toEqual([400, 'key_numbers']);
    expect(await field({ ...keyNumber, key_numbers: [] })).toEqual([400, 'key_numbers']);
    expect(await field({ ...keyNumber, key_numbers: [0] })).toEqual([400, 'key_numbers']);
    expect(await field({ ...keyNumber, key_numbers: [3.2] })).toEqual([400, 'key_numbers']);
    expect(await field({ ...keyNumber, key_numbers: [3, 3] })).toEqual([400, 'key_numbers']);
    expect(await field({ ...keyNumber, key_totals: [-41] })).toEqual([400, 'key_totals']);
    expect(await field({ ...keyNumber, market: 'moneyline' })).toEqual([400, 'market']);
    expect(await field({ ...keyNumber, sportsbook: 'nowhere' })).toEqual([400, 'sportsbook']);
    expect(await field({ ...keyNumber, sport: 'basketball' })).toEqual([400, 'key_numbers']);
    expect(await field({ ...keyNumber, sport: 'basketball', market: 'total' })).toEqual([400, 'key_totals']);
    expect(await field({ ...keyNumber, league: 'ncaaf', market: 'total' })).toEqual([400, 'key_totals']);
    expect(await field({ ...keyNumber, league: 'ncaaf', market: 'spread' })).toEqual([201, expect.any(String)]);
    expect(await field({ ...keyNumber, min_ev: 2 })).toEqual([400, 'min_ev']);
    expect(await field({ ...keyNumber, public_by: 'bets' })).toEqual([400, 'public_by']);
    expect(await field({ ...rlmRule, public_by: 'tickets' })).toEqual([400, 'public_by']);
    expect(await field({ ...rlmRule, min_public_pct: 40 })).toEqual([400, 'min_public_pct']);
    expect(await field({ ...rlmRule, min_line_move: 0 })).toEqual([400, 'min_line_move']);
    expect(await field({ ...rlmRule, min_probability_move: -1 })).toEqual([400, 'min_probability_move']);
    expect(await field({ ...rlmRule, sportsbook: 'fanduel' })).toEqual([400, 'sportsbook']);
    expect(await field({ ...rlmRule, market: 'player_points' })).toEqual([400, 'market']);
    expect(await field({ ...rlmRule, key_totals: [44] })).toEqual([400, 'key_totals']);
    expect(await field({ kind: 'ev', min_line_move: 1 })).toEqual([400, 'min_line_move']);
    // A sharp book above the tier: 403, as on the odds endpoints.
    const above = await sys.post('/api/v1/alerts', { webhook_url: hookUrl, ...keyNumber, sportsbook: 'pinnacle' }, keys.hobby);
    expect([above.status, error(above)[0]]).toEqual([403, 'feature_required']);
  });

  it("posts a key_number alert when Pinnacle's main spread passes the rule's key number", async () => {
    const made = await sys.post(
      '/api/v1/alerts',
      { kind: 'key_number', webhook_url: hookUrl, league: 'nba', sportsbook: 'pinnacle', market: 'spread', key_numbers: [3] },
      keys.sharp,
    );
    const ruleId = (made.body['data'] as Row)['id'];
    await feed.push(pinnacleSpread(-2.5, -110, -110));
    await sys.drained();
    // The -2.5 line is shaded away from even and -3.5 is posted at even: the main line moves across 3.
    await feed.push([...pinnacleSpread(-2.5, -150, 130), ...pinnacleSpread(-3.5, -110, -110)]);
    const ours = (): Row[] => received.map((r) => JSON.parse(r.body) as Row).filter((b) => b['rule_id'] === ruleId);
    await until(() => ours().length >= 1);
    expect(ours()[0]).toMatchObject({
      kind: 'key_number',
      data: { league: 'nba', sportsbook: 'pinnacle', market: 'spread', from_line: -2.5, to_line: -3.5, key_numbers: [3] },
    });
    await sys.send('DELETE', `/api/v1/alerts/${String(ruleId)}`, { key: keys.sharp });
  });

  it('caps rules per account by tier: 403 naming the tier that has more; +EV rules need a tier with +EV', async () => {
    expect((await sys.post('/api/v1/alerts', { kind: 'arbitrage', webhook_url: hookUrl }, keys.free)).status).toBe(403);
    const ev = await sys.post('/api/v1/alerts', { kind: 'ev', webhook_url: hookUrl }, keys.hobby);
    expect([ev.status, error(ev)[0]]).toEqual([403, 'feature_required']);
    for (let i = 0; i < 3; i++)
      expect((await sys.post('/api/v1/alerts', { kind: 'arbitrage', webhook_url: hookUrl }, keys.hobby)).status).toBe(201);
    const fourth = await sys.post('/api/v1/alerts', { kind: 'arbitrage', webhook_url: hookUrl }, keys.hobby);
    expect([fourth.status, ...error(fourth)]).toEqual([
      403,
      'feature_required',
      'The hobby tier allows 3 alert rules per account and this account has 3: delete one, or move to the pro tier (10 rules)',
    ]);
  });
});
