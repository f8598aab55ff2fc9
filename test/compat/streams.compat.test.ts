/**
 * Compatibility contract of the streams: every SSE event and every WebSocket message, in and out,
 * that a client of the reference service handles, with the fields it reads (COMPAT §5, our own
 * fixtures). One scripted client per interface drives the system through each kind: snapshots,
 * price moves, suspensions, opportunities found and gone, a price leaving a filter, displacement,
 * and on the WebSocket every client message. The game-state and splits frames are specified
 * with their own boards in api/stream/splits-gamestate.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawTick } from '../../schemas/index.js';
import { hashSecret, previewOf } from '../../api/accounts/index.js';
import { startConformance } from '../support/fixture.js';
import type { Conformance } from '../support/fixture.js';
import { opportunityTicks } from '../support/opportunity-ticks.js';
import { SseClient, WsClient } from '../support/stream-clients.js';
import type { WsMessage } from '../support/stream-clients.js';

type Row = Record<string, unknown>;
type Kind = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'null';

/** Field -> JSON type (several allowed with `|`), as a reference client reads them. */
function expectFields(where: string, obj: unknown, shape: Record<string, string>): void {
  const row = obj as Row;
  for (const [field, kinds] of Object.entries(shape)) {
    const v = row[field];
    const actual: Kind | 'undefined' = v === null ? 'null' : Array.isArray(v) ? 'array' : (typeof v as Kind);
    expect(kinds.split('|'), `${where}.${field}: ${JSON.stringify(v)}`).toContain(actual);
  }
}

let c: Conformance;
let extra: RawTick[];
beforeAll(async () => {
  c = await startConformance({ STREAM_HEARTBEAT_SECONDS: '1' });
  extra = opportunityTicks(c.ticks);
  await c.push(extra);
});
afterAll(async () => {
  await c.sys.close();
});

/** The opportunity prices suspended (every opportunity on them goes, their rows lock), then reopened. */
async function suspendAndReopen(): Promise<void> {
  await c.push(extra.map((t) => ({ ...t, status: 'suspended' as const })));
  await c.push(extra);
}

const LIST_PREFIXES = ['ev', 'arb', 'middles', 'low_hold'] as const;

describe('SSE events', () => {
  it('connected, the snapshots, snapshot:complete, odds:update, odds:locked, every <kind>:detected and :expired, heartbeat', async () => {
    const sse = await SseClient.open(`${c.sys.url}/api/v1/stream?channel=all&api_key=${c.keys.sharp}`);
    await sse.until((f) => f.some((x) => x.event === 'snapshot:complete'));
    await suspendAndReopen();
    await sse.until(
      (f) => f.some((x) => x.event === 'heartbeat') && LIST_PREFIXES.every((p) => f.some((x) => x.event === `${p}:detected`)),
    );
    sse.close();
    const first = (name: string): Row => sse.frames.find((f) => f.event === name)?.data as Row;
    expectFields('connected', first('connected'), {
      stream_id: 'string',
      channel: 'string',
      tier: 'string',
      filters: 'object',
      reconnected: 'boolean',
      resumed: 'boolean',
    });
    const snapshots = sse.frames.filter((f) => f.event === 'snapshot').map((f) => f.data as Row);
    expectFields(
      'snapshot (odds)',
      snapshots.find((d) => d['odds'] !== undefined),
      {
        odds: 'array',
        count: 'number',
        total: 'number',
        offset: 'number',
        has_more: 'boolean',
      },
    );
    expectFields(
      'snapshot (lists)',
      snapshots.find((d) => d['ev'] !== undefined),
      {
        ev: 'array',
        arbitrage: 'array',
        middles: 'array',
        low_hold: 'array',
        chunk: 'number',
        total_chunks: 'number',
      },
    );
    expectFields('snapshot:complete', first('snapshot:complete'), { status: 'string', books: 'array', total_odds: 'number' });
    expectFields('odds:update', first('odds:update'), { odds: 'array', count: 'number', book: 'string' });
    const locked = first('odds:locked');
    expectFields('odds:locked', locked, { odds: 'array', count: 'number', book: 'string' });
    expect((locked['odds'] as Row[]).every((r) => r['is_active'] === false)).toBe(true);
    for (const p of LIST_PREFIXES) {
      const detected = first(`${p}:detected`) as unknown as Row[];
      expect(Array.isArray(detected), p).toBe(true);
      expectFields(`${p}:detected[0]`, detected[0], { id: 'string' });
      expectFields(`${p}:expired`, first(`${p}:expired`), { expired: 'array', timestamp: 'string' });
    }
    expectFields('heartbeat', first('heartbeat'), { timestamp: 'string' });
  });

  it('error: the stream a newer one of the account displaced is told why before it ends', async () => {
    const key = c.newKey('free', 100_000);
    const older = await SseClient.open(`${c.sys.url}/api/v1/stream?channel=odds&api_key=${key}`);
    const newer = await SseClient.open(`${c.sys.url}/api/v1/stream?channel=odds&api_key=${key}`);
    await older.until((f) => f.some((x) => x.event === 'error'));
    expectFields('error', older.frames.find((f) => f.event === 'error')?.data, { code: 'string', message: 'string' });
    newer.close();
  });
});

describe('WebSocket messages', () => {
  const ws = (query: string): string => `${c.sys.url.replace(/^http/, 'ws')}/ws?${query}`;
  const first = (m: WsMessage[], type: string): WsMessage => m.find((x) => x.type === type) as WsMessage;

  it('out: connected, subscribed, opportunities_snapshot, initial, snapshot:complete, odds:update/locked/removed, <kind>:detected/expired, heartbeat', async () => {
    // max_odds 150: Caesars' Celtics +130 is in; moved to +250 it leaves the filter (odds:removed).
    const client = await WsClient.open(ws(`api_key=${c.keys.sharp}&max_odds=150`));
    await client.until((m) => m.some((x) => x.type === 'snapshot:complete'));
    await suspendAndReopen();
    const celtics = extra.find((t) => t.book === 'caesars' && t.outcome === 'Boston Celtics') as RawTick;
    await c.push([{ ...celtics, priceAmerican: 250 }]);
    await client.until(
      (m) =>
        m.some((x) => x.type === 'odds:removed') && m.some((x) => x.type === 'heartbeat') && m.some((x) => x.type === 'middles:detected'),
    );
    await c.push([celtics]);
    client.close();
    const m = client.messages;
    for (const x of m) expectFields(`${x.type} envelope`, x, { type: 'string', seq: 'number', timestamp: 'string' });
    expectFields('connected', first(m, 'connected'), {
      message: 'string',
      stream_id: 'string',
      tier: 'string',
      features: 'object',
      channels: 'array|null',
      global_seq: 'number',
      books: 'object',
    });
    expectFields('connected.features', first(m, 'connected')['features'], {
      ev: 'boolean',
      arbitrage: 'boolean',
      middles: 'boolean',
      low_hold: 'boolean',
    });
    expectFields('connected.books', first(m, 'connected')['books'], { max: 'number', allowed: 'array|null' });
    expectFields('subscribed', first(m, 'subscribed'), {
      channels: 'array|null',
      sports: 'array|null',
      sportsbooks: 'array|null',
      leagues: 'array|null',
      markets: 'array|null',
      eventIds: 'array|null',
      min_ev: 'number',
      min_profit: 'number',
    });
    const lists = m.filter((x) => x.type === 'opportunities_snapshot');
    for (const l of ['ev', 'arbitrage', 'middles', 'low_hold'])
      expectFields(
        `opportunities_snapshot ${l}`,
        lists.find((x) => x[l] !== undefined),
        { [l]: 'array', chunk: 'number', totalChunks: 'number' },
      );
    expectFields('initial', first(m, 'initial'), { source: 'string', data: 'array', count: 'number' });
    expectFields('snapshot:complete', first(m, 'snapshot:complete'), { books: 'array', resumed: 'boolean', progressive: 'boolean' });
    expectFields('odds:update', first(m, 'odds:update'), { source: 'string', data: 'array', count: 'number', global_seq: 'number' });
    expectFields('odds:locked', first(m, 'odds:locked'), { source: 'string', data: 'array', count: 'number' });
    expectFields('odds:removed', first(m, 'odds:removed'), { source: 'string', ids: 'array', count: 'number' });
    for (const p of LIST_PREFIXES) {
      expectFields(`${p}:detected`, first(m, `${p}:detected`), { data: 'array' });
      expectFields(`${p}:expired.data`, first(m, `${p}:expired`)['data'], { expired: 'array' });
    }
    expectFields('heartbeat', first(m, 'heartbeat'), { global_seq: 'number' });
  });

  it('in: auth, subscribe, filter, unsubscribe, refresh_token and ping, each answered as the reference does', async () => {
    const ownerSecret = `pro_compat_${Date.now()}`;
    const owner = c.sys.keys.add(ownerSecret, 'pro');
    const second = `pro_compat_second_${Date.now()}`;
    c.sys.keys.apply({
      kind: 'key',
      key: {
        id: `key_compat_${Date.now()}`,
        accountId: owner.accountId,
        hash: hashSecret(second),
        preview: previewOf(second),
        tier: 'pro',
        name: null,
        createdAt: Date.now(),
        updatedAt: Date.now(),
        active: true,
        expiresAt: null,
        revokedAt: null,
        requestsPerMinute: null,
        replacedBy: null,
        version: 1,
      },
    });
    const client = await WsClient.open(ws('channels=odds'));
    const count = (type: string): number => client.messages.filter((x) => x.type === type).length;
    client.send({ type: 'subscribe', channels: ['ev'] });
    await client.until(() => count('error') === 1);
    expect(client.messages[0]).toMatchObject({ type: 'error', code: 'not_authenticated' });
    client.send({ type: 'auth' });
    await client.until(() => count('error') === 2);
    expect(client.messages[1]).toMatchObject({ code: 'missing_token' });
    client.send({ type: 'auth', token: ownerSecret });
    await client.until(() => count('snapshot:complete') === 1);
    client.send({ type: 'subscribe', channels: ['odds', 'ev'], filters: { sportsbooks: ['pinnacle', 'caesars'] } });
    await client.until(() => count('snapshot:complete') === 2);
    client.send({ type: 'filter', filters: { leagues: ['nba'] } });
    await client.until(() => count('snapshot:complete') === 3);
    client.send({ type: 'unsubscribe', channels: ['ev'] });
    await client.until(() => count('subscribed') === 4);
    client.send({ type: 'refresh_token', token: second });
    await client.until(() => count('token_refreshed') === 1);
    client.send({ type: 'ping' });
    await client.until(() => count('pong') === 1);
    client.send({ type: 'auth', token: second });
    await client.until(() => client.messages.some((x) => x['code'] === 'already_authenticated'));
    client.close();
    const subscribed = client.messages.filter((x) => x.type === 'subscribed');
    expect(subscribed.map((x) => x['channels'])).toEqual([['odds'], ['odds', 'ev'], ['odds', 'ev'], ['odds']]);
    expect(subscribed[2]).toMatchObject({ sportsbooks: null, leagues: ['nba'] });
    expectFields(
      'token_refreshed',
      client.messages.find((x) => x.type === 'token_refreshed'),
      { key_id: 'string' },
    );
    expectFields(
      'pong',
      client.messages.find((x) => x.type === 'pong'),
      { seq: 'number', timestamp: 'string' },
    );
    expect(client.closeCode).toBeNull();
  });
});
