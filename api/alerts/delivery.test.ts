import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { AlertDeliveryRecord, AlertRuleRecord } from '../../schemas/index.js';
import { SecretSeal } from '../accounts/index.js';
import { alertId } from './alert.js';
import type { Alert } from './alert.js';
import { WebhookDelivery } from './delivery.js';
import type { DeliveryOptions } from './delivery.js';
import { WEBHOOK_HEADERS, verifyWebhook } from './signature.js';

/** A seeded generator (mulberry32): the receiver's faults are the same on every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Fault = 'down' | 'error' | 'slow' | 'none';

/**
 * A webhook receiver on 127.0.0.1 that does what a real one should: checks the signature and the
 * timestamp, and processes each idempotency key once (a repeat is acknowledged, not processed).
 * `fault` decides, per request, whether it is down (the connection is cut), answers 500 without
 * processing, or processes and then answers too late for the sender's timeout.
 */
async function receiver(secret: string, fault: (n: number) => Fault, slowMs = 0) {
  const processed: { key: string; rule: string; sequence: number }[] = [];
  const seen = new Set<string>();
  const refused: string[] = [];
  let requests = 0;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const f = fault(requests++);
      if (f === 'down') {
        req.socket.destroy();
        return;
      }
      if (f === 'error') {
        res.writeHead(500).end();
        return;
      }
      const body = Buffer.concat(chunks).toString('utf8');
      const ok = verifyWebhook({
        secret,
        body,
        signature: String(req.headers[WEBHOOK_HEADERS.signature]),
        timestamp: String(req.headers[WEBHOOK_HEADERS.timestamp]),
        nowSeconds: Math.floor(Date.now() / 1000),
      });
      const key = String(req.headers[WEBHOOK_HEADERS.idempotencyKey]);
      if (!ok) {
        refused.push(key);
        res.writeHead(401).end();
        return;
      }
      if (!seen.has(key)) {
        seen.add(key);
        const parsed = JSON.parse(body) as { id: string; rule_id: string; sequence: number };
        expect(parsed.id).toBe(key);
        processed.push({ key, rule: parsed.rule_id, sequence: parsed.sequence });
      }
      if (f === 'slow') setTimeout(() => res.writeHead(200).end(), slowMs);
      else res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  servers.push(server);
  return { url, processed, refused, requests: () => requests };
}

const servers: Server[] = [];
afterEach(async () => {
  // Keep-alive sockets would hold `close` open for seconds.
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

const SECRET = 'whsec_test';
/** Rules are stored with their secret sealed; the deliverer opens it with the same seal. */
const SEAL = new SecretSeal(randomBytes(32));
const T0 = Date.UTC(2026, 10, 28, 12);

function rule(id: string, url: string): AlertRuleRecord {
  return {
    id,
    accountId: 'acct_1',
    keyId: 'key_1',
    tier: 'pro',
    name: null,
    kind: 'ev',
    filtersJson: '{}',
    webhookUrl: url,
    secret: SEAL.seal(SECRET),
    createdAt: T0,
    updatedAt: T0,
    active: true,
    deletedAt: null,
    version: 1,
  };
}

function alerts(ruleId: string, n: number): Alert[] {
  return Array.from({ length: n }, (_, i) => ({
    id: alertId(ruleId, `opp_${i}`),
    ruleId,
    accountId: 'acct_1',
    kind: 'ev' as const,
    sequence: i + 1,
    raisedAt: T0 + i,
    data: { id: `opp_${i}` },
  }));
}

/** Bounded: a delivery that never settles fails the test instead of hanging it. */
async function settle(delivery: WebhookDelivery, ms = 8000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    delivery.settled(),
    new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`not settled within ${ms} ms`)), ms))),
  ]);
  clearTimeout(timer);
}

function deliveryWith(options: Partial<DeliveryOptions>) {
  const log: AlertDeliveryRecord[] = [];
  const delivery = new WebhookDelivery({ now: Date.now, openSecret: (s) => SEAL.open(s), onFinished: (r) => log.push(r), options });
  return { delivery, log };
}

describe('webhook delivery', () => {
  it('gets every alert through a receiver that is down for a while, slow, and fails at random: once per idempotency key, in order per rule, within the retry budget', async () => {
    const random = seeded(34);
    const started = Date.now();
    const hook = await receiver(
      SECRET,
      () => {
        if (Date.now() - started < 120) return 'down';
        const r = random();
        return r < 0.25 ? 'error' : r < 0.35 ? 'slow' : 'none';
      },
      150,
    );
    const { delivery, log } = deliveryWith({ attempts: 20, firstDelayMs: 5, maxDelayMs: 30, timeoutMs: 80 });
    const rules = ['alert_a', 'alert_b', 'alert_c'].map((id) => rule(id, hook.url));
    const raised = new Map(rules.map((r) => [r.id, alerts(r.id, 15)]));
    // Interleaved, as a board change raises alerts of several rules at once.
    for (let i = 0; i < 15; i++) for (const r of rules) delivery.enqueue(r, raised.get(r.id)?.[i] as Alert);
    await settle(delivery);

    expect(hook.refused).toEqual([]);
    const keys = hook.processed.map((p) => p.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.sort()).toEqual(
      [...raised.values()]
        .flat()
        .map((a) => a.id)
        .sort(),
    );
    for (const r of rules) {
      const sequences = hook.processed.filter((p) => p.rule === r.id).map((p) => p.sequence);
      expect(sequences).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    }
    expect(log).toHaveLength(45);
    expect(log.every((d) => d.outcome === 'delivered' && d.attempts <= 20 && d.lastStatus === 200)).toBe(true);
    // The faults did happen: more requests than alerts.
    expect(hook.requests()).toBeGreaterThan(45);
  });

  it('puts everything for a receiver that never recovers in the dead letter, none lost', async () => {
    const hook = await receiver(SECRET, () => 'error');
    const { delivery, log } = deliveryWith({ attempts: 4, firstDelayMs: 1, maxDelayMs: 2, timeoutMs: 200 });
    const r = rule('alert_dead', hook.url);
    const raised = alerts(r.id, 6);
    for (const a of raised) delivery.enqueue(r, a);
    await settle(delivery);

    expect(hook.processed).toEqual([]);
    expect(hook.requests()).toBe(6 * 4);
    expect(log.map((d) => [d.alertId, d.outcome, d.attempts, d.lastStatus, d.lastError])).toEqual(
      raised.map((a) => [a.id, 'dead_letter', 4, 500, 'HTTP 500']),
    );
    expect(delivery.recentOf(r.id).map((d) => d.sequence)).toEqual([6, 5, 4, 3, 2, 1]);
  });

  it('dead-letters without a request a rule whose secret was sealed under another key', async () => {
    const hook = await receiver(SECRET, () => 'none');
    const { delivery, log } = deliveryWith({ attempts: 5, firstDelayMs: 1, maxDelayMs: 2 });
    const r = { ...rule('alert_foreign', hook.url), secret: new SecretSeal(randomBytes(32)).seal(SECRET) };
    delivery.enqueue(r, alerts(r.id, 1)[0] as Alert);
    await settle(delivery);
    expect(hook.requests()).toBe(0);
    expect(log.map((d) => [d.outcome, d.attempts, d.lastError])).toEqual([
      ['dead_letter', 0, "the rule's signing secret cannot be opened here: every API replica needs the same ALERT_SECRET_KEY"],
    ]);
  });

  it('does not repeat a request the receiver refuses (4xx other than 408 and 429)', async () => {
    const hook = await receiver('another secret', () => 'none');
    const { delivery, log } = deliveryWith({ attempts: 5, firstDelayMs: 1, maxDelayMs: 2 });
    const r = rule('alert_401', hook.url);
    delivery.enqueue(r, alerts(r.id, 1)[0] as Alert);
    await settle(delivery);
    expect(hook.requests()).toBe(1);
    expect(log.map((d) => [d.outcome, d.attempts, d.lastStatus])).toEqual([['dead_letter', 1, 401]]);
  });

  it('dead-letters what a full queue cannot hold, recorded at once', async () => {
    const hook = await receiver(SECRET, () => 'slow', 50);
    const { delivery, log } = deliveryWith({ queueLimit: 2, timeoutMs: 1000 });
    const r = rule('alert_full', hook.url);
    const raised = alerts(r.id, 5);
    for (const a of raised) delivery.enqueue(r, a);
    expect(log.map((d) => [d.sequence, d.outcome, d.lastError])).toEqual([
      [3, 'dead_letter', 'queue full (2 alerts waiting for this rule)'],
      [4, 'dead_letter', 'queue full (2 alerts waiting for this rule)'],
      [5, 'dead_letter', 'queue full (2 alerts waiting for this rule)'],
    ]);
    await settle(delivery);
    expect(hook.processed.map((p) => p.sequence)).toEqual([1, 2]);
    expect(log.filter((d) => d.outcome === 'delivered').map((d) => d.sequence)).toEqual([1, 2]);
  });
});
