/**
 * The `alerts` stream channel: the alerts of an account's own rules, with the webhook's body, on
 * SSE and WebSocket; another account's alerts never reach it, and revoking the key ends it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TierName } from '../../schemas/index.js';
import type { AlertFollower, StreamedAlert } from '../stream/index.js';
import { SseClient, WsClient } from '../../test/support/stream-clients.js';
import type { WsMessage } from '../../test/support/stream-clients.js';
import { fixtureEvent, startStreamApp } from '../../test/support/stream-app.js';
import type { StreamApp } from '../../test/support/stream-app.js';
import { alertBody } from './alert.js';
import type { Alert } from './alert.js';

let s: StreamApp;
let alerts: Alerts;
beforeAll(async () => {
  alerts = new Alerts();
  s = await startStreamApp({}, { alerts: alerts.follow });
  s.board.applyEvent(fixtureEvent('nba-1'));
  s.set('nba-1', 'draftkings', 'moneyline', 'home', 1.9);
});
afterAll(async () => {
  await s.close();
});

let made = 0;
/** A key of its own account, so that the tests sharing the app never see each other's alerts. */
function newKey(tier: TierName): { key: string; account: string } {
  const key = `alerts_channel_${tier}_${++made}`;
  return { key, account: s.keyStore.add(key, tier, { requestsPerMinute: 1_000_000 }).accountId };
}

/** Stands in for the alerting component: the test raises alerts by hand. */
class Alerts {
  private readonly listeners = new Set<(alert: StreamedAlert) => void>();
  readonly follow: AlertFollower = (listener) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  raise(alert: Alert): string {
    const body = alertBody(alert);
    for (const l of this.listeners) l({ accountId: alert.accountId, body });
    return body;
  }
}

function alert(accountId: string, n: number): Alert {
  return {
    id: `alt_${accountId}_${n}`,
    ruleId: `alert_${accountId}`,
    accountId,
    kind: 'ev',
    sequence: n,
    raisedAt: Date.UTC(2026, 10, 22, 12, 0, n),
    data: { id: `opp-${n}`, ev_percent: 2.5 },
  };
}

function revoke(app: StreamApp, secret: string): void {
  const rec = app.keyStore.key(app.keyStore.lookup(secret)?.keyId ?? '');
  if (!rec) throw new Error('no key');
  app.keyStore.apply({ kind: 'key', key: { ...rec, active: false, revokedAt: Date.now(), version: rec.version + 1 } });
}

const ofType = (messages: WsMessage[], type: string): WsMessage[] => messages.filter((m) => m.type === type);

describe('alerts channel over SSE', () => {
  it("gives each account its own rules' alerts only, each frame the webhook's body", async () => {
    const { key: proKey, account: pro } = newKey('pro');
    const { key: sharpKey, account: sharp } = newKey('sharp');
    const a = await SseClient.open(`${s.url}/api/v1/stream?channel=alerts&api_key=${proKey}`);
    const b = await SseClient.open(`${s.url}/api/v1/stream/alerts?api_key=${sharpKey}`);
    await a.until((f) => f.some((x) => x.event === 'snapshot:complete'));
    await b.until((f) => f.some((x) => x.event === 'snapshot:complete'));
    expect(a.frames[0]).toMatchObject({ event: 'connected', data: { channel: 'alerts', tier: 'pro' } });
    const first = alerts.raise(alert(pro, 1));
    const other = alerts.raise(alert(sharp, 1));
    const second = alerts.raise(alert(pro, 2));
    await a.until((f) => f.filter((x) => x.event === 'alert:raised').length === 2);
    await b.until((f) => f.some((x) => x.event === 'alert:raised'));
    expect(a.frames.filter((x) => x.event === 'alert:raised').map((x) => x.text)).toEqual([first, second]);
    expect(b.frames.filter((x) => x.event === 'alert:raised').map((x) => x.text)).toEqual([other]);
    const ids = a.frames.filter((x) => x.event === 'alert:raised').map((x) => Number(x.id));
    expect(ids[1]).toBeGreaterThan(ids[0] as number);
    expect((a.frames.at(-1)?.data as { id: string }).id).toBe(`alt_${pro}_2`);
    a.close();
    b.close();
  });

  it('adds the alerts to another channel named beside them, and resumes missed alerts from Last-Event-ID', async () => {
    const { key, account: pro } = newKey('pro');
    const url = `${s.url}/api/v1/stream?channel=odds,alerts&api_key=${key}`;
    const c = await SseClient.open(url);
    await c.until((f) => f.some((x) => x.event === 'snapshot:complete'));
    expect(c.frames[0]?.data).toMatchObject({ channel: 'odds', alerts: true });
    expect(c.frames.find((x) => x.event === 'snapshot')?.data).toMatchObject({ count: 1 });
    alerts.raise(alert(pro, 1));
    await c.until((f) => f.some((x) => x.event === 'alert:raised'));
    const resumeAt = c.lastId ?? '';
    c.close();
    const missed = alerts.raise(alert(pro, 2));
    await new Promise((resolve) => setImmediate(resolve));
    const again = await SseClient.open(url, { 'last-event-id': resumeAt });
    await again.until((f) => f.some((x) => x.event === 'alert:raised'));
    expect(again.frames[0]?.data).toMatchObject({ resumed: true });
    expect(again.frames.filter((x) => x.event === 'alert:raised').map((x) => x.text)).toEqual([missed]);
    again.close();
  });

  it('ends the stream with an error frame when the key is revoked', async () => {
    const { key } = newKey('hobby');
    const c = await SseClient.open(`${s.url}/api/v1/stream/alerts?api_key=${key}`);
    await c.until((f) => f.some((x) => x.event === 'snapshot:complete'));
    revoke(s, key);
    await c.until(() => c.ended);
    expect(c.frames.at(-1)).toMatchObject({ event: 'error', data: { code: 'key_revoked' } });
  });

  it('refuses a tier that may hold no alert rules with 403 naming the tier that may', async () => {
    const c = await SseClient.open(`${s.url}/api/v1/stream?channel=alerts&api_key=${s.keys.free}`);
    expect(c.status).toBe(403);
    expect(c.body).toMatchObject({ error: { code: 'feature_required', required_tier: 'hobby', tier: 'free' } });
  });
});

describe('alerts channel over WebSocket', () => {
  it("gives each account its own rules' alerts only, as `alert:raised` messages with the webhook's body in data", async () => {
    const { key: proKey, account: pro } = newKey('pro');
    const { key: sharpKey, account: sharp } = newKey('sharp');
    const a = await WsClient.open(`${s.wsUrl}/ws?channels=alerts&api_key=${proKey}`);
    const b = await WsClient.open(`${s.wsUrl}/ws?channels=alerts&api_key=${sharpKey}`);
    await a.until((m) => ofType(m, 'snapshot:complete').length === 1);
    await b.until((m) => ofType(m, 'snapshot:complete').length === 1);
    const mine = alerts.raise(alert(pro, 1));
    const theirs = alerts.raise(alert(sharp, 1));
    await a.until((m) => ofType(m, 'alert:raised').length === 1);
    await b.until((m) => ofType(m, 'alert:raised').length === 1);
    expect(ofType(a.messages, 'alert:raised').map((m) => m['data'])).toEqual([JSON.parse(mine)]);
    expect(ofType(b.messages, 'alert:raised').map((m) => m['data'])).toEqual([JSON.parse(theirs)]);
    a.close();
    b.close();
  });

  it('takes alerts in a subscribe message and closes with 4001 when the key is revoked', async () => {
    const { key, account } = newKey('hobby');
    const c = await WsClient.open(`${s.wsUrl}/ws?channels=odds&api_key=${key}`);
    await c.until((m) => ofType(m, 'snapshot:complete').length === 1);
    c.send({ type: 'subscribe', channels: ['odds', 'alerts'] });
    await c.until((m) => ofType(m, 'snapshot:complete').length === 2);
    alerts.raise(alert(account, 1));
    await c.until((m) => ofType(m, 'alert:raised').length === 1);
    revoke(s, key);
    expect(await c.closed()).toBe(4001);
  });

  it('closes a free key asking for alerts with 4003 tier_restricted', async () => {
    const c = await WsClient.open(`${s.wsUrl}/ws?channels=alerts&api_key=${s.keys.free}`);
    expect(await c.closed()).toBe(4003);
    expect(ofType(c.messages, 'error')[0]).toMatchObject({ code: 'tier_restricted', required_tier: 'hobby' });
  });
});
