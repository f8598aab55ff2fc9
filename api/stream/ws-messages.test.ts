/**
 * The reference's WebSocket client messages beyond subscribe and ping: `auth` (the key after
 * connecting), `filter` (new filters, same channels), `refresh_token` (another key of the same
 * account), and their error codes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WsClient } from '../../test/support/stream-clients.js';
import type { WsMessage } from '../../test/support/stream-clients.js';
import { fixtureEvent, startStreamApp } from '../../test/support/stream-app.js';
import type { StreamApp } from '../../test/support/stream-app.js';

let s: StreamApp;
afterEach(async () => {
  await s.close();
});

const ofType = (messages: WsMessage[], type: string): WsMessage[] => messages.filter((m) => m.type === type);
const errors = (c: WsClient): unknown[] => ofType(c.messages, 'error').map((m) => m['code']);

function revoke(app: StreamApp, secret: string): void {
  const id = app.keyStore.lookup(secret)?.keyId ?? '';
  const rec = app.keyStore.key(id);
  if (!rec) throw new Error('no key');
  app.keyStore.apply({ kind: 'key', key: { ...rec, active: false, revokedAt: Date.now(), version: rec.version + 1 } });
}

describe('WebSocket auth message', () => {
  it('takes the key as the first message: not_authenticated before it, missing_token without one, then connected and the stream', async () => {
    s = await startStreamApp();
    s.board.applyEvent(fixtureEvent('nba-1'));
    s.set('nba-1', 'draftkings', 'moneyline', 'home', 1.9);
    const c = await WsClient.open(`${s.wsUrl}/ws?channels=odds`);
    c.send({ type: 'subscribe', channels: ['odds'] });
    c.send({ type: 'auth' });
    await c.until((m) => ofType(m, 'error').length === 2);
    expect(errors(c)).toEqual(['not_authenticated', 'missing_token']);
    c.send({ type: 'auth', token: s.keys.pro });
    await c.until((m) => ofType(m, 'snapshot:complete').length === 1);
    expect(ofType(c.messages, 'connected')[0]).toMatchObject({ tier: 'pro', channels: ['odds'] });
    c.send({ type: 'auth', token: s.keys.pro });
    await c.until((m) => ofType(m, 'error').length === 3);
    expect(errors(c)[2]).toBe('already_authenticated');
    expect(c.closeCode).toBeNull();
    c.close();
  });

  it('closes with 4001 for a bad key in the auth message', async () => {
    s = await startStreamApp();
    const c = await WsClient.open(`${s.wsUrl}/ws`);
    c.send({ type: 'auth', token: 'wrong' });
    expect(await c.closed()).toBe(4001);
    expect(errors(c)).toEqual(['invalid_api_key']);
  });

  it('leases the connection like header auth: revoking the key ends it with 4001', async () => {
    s = await startStreamApp();
    const c = await WsClient.open(`${s.wsUrl}/ws?channels=odds`);
    c.send({ type: 'auth', token: s.keys.hobby });
    await c.until((m) => ofType(m, 'snapshot:complete').length === 1);
    revoke(s, s.keys.hobby);
    expect(await c.closed()).toBe(4001);
  });
});

describe('WebSocket filter and refresh_token messages', () => {
  it('changes the filters and keeps the channels', async () => {
    s = await startStreamApp();
    const c = await WsClient.open(`${s.wsUrl}/ws?channels=odds&api_key=${s.keys.pro}`);
    await c.until((m) => ofType(m, 'snapshot:complete').length === 1);
    c.send({ type: 'filter', filters: { sports: ['basketball'], min_ev: 3 } });
    await c.until((m) => ofType(m, 'subscribed').length === 2);
    expect(ofType(c.messages, 'subscribed')[1]).toMatchObject({ channels: ['odds'], sports: ['basketball'], min_ev: 3 });
    c.send({ type: 'filter', league: 'nba' });
    await c.until((m) => ofType(m, 'subscribed').length === 3);
    expect(ofType(c.messages, 'subscribed')[2]).toMatchObject({ channels: ['odds'], leagues: ['nba'] });
    c.close();
  });

  it('answers missing_channels to a subscribe with an empty channel list and an unsubscribe without one', async () => {
    s = await startStreamApp();
    const c = await WsClient.open(`${s.wsUrl}/ws?channels=odds&api_key=${s.keys.pro}`);
    await c.until((m) => ofType(m, 'snapshot:complete').length === 1);
    c.send({ type: 'subscribe', channels: [] });
    c.send({ type: 'unsubscribe' });
    await c.until((m) => ofType(m, 'error').length === 2);
    expect(errors(c)).toEqual(['missing_channels', 'missing_channels']);
    expect(c.closeCode).toBeNull();
    c.close();
  });

  it('moves the connection to a new key of the same account, so revoking the old one no longer ends it', async () => {
    s = await startStreamApp();
    const old = s.keyStore.lookup(s.keys.pro);
    const fresh = 'pro_stream_test_key_2';
    const added = s.keyStore.add(fresh, 'pro', { requestsPerMinute: 1_000_000 });
    // A second key of the same account: the store gives each added key an account of its own, so join them.
    const rec = s.keyStore.key(added.keyId);
    if (!rec || !old) throw new Error('no key');
    s.keyStore.apply({ kind: 'key', key: { ...rec, accountId: old.accountId, version: rec.version + 1 } });
    const c = await WsClient.open(`${s.wsUrl}/ws?channels=odds&api_key=${s.keys.pro}`);
    await c.until((m) => ofType(m, 'snapshot:complete').length === 1);
    c.send({ type: 'refresh_token' });
    c.send({ type: 'refresh_token', token: 'wrong' });
    await c.until((m) => ofType(m, 'error').length === 2);
    expect(errors(c)).toEqual(['missing_token', 'invalid_token']);
    c.send({ type: 'refresh_token', token: fresh });
    await c.until((m) => ofType(m, 'token_refreshed').length === 1);
    expect(ofType(c.messages, 'token_refreshed')[0]).toMatchObject({ key_id: added.keyId });
    revoke(s, s.keys.pro);
    await new Promise((r) => setTimeout(r, 200));
    expect(c.closeCode).toBeNull();
    revoke(s, fresh);
    expect(await c.closed()).toBe(4001);
  });
});
