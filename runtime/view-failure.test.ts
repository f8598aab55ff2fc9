// In chaos, an API replica restarted near the end served a board that lacked rows the other
// replica had, through a whole 120-s settle wait, with /health ok. Its views ran without a
// failure policy: a view consumer that lost the brokers while the process started (the Kafka
// client gives such a consumer up: `KafkaJSConnectionError: write after end`, as a pipeline
// process met under the same kills) stopped for good, and the board stayed frozen at whatever
// it had loaded. The views now run under the runtime's failure policy like the pipeline's stages.
// The replica's accounts consumer had the same gap, with a worse outcome: a key revoked on
// another replica kept working here for good. So had the alert delivery lease (the consumer whose
// assignment elects the replica that posts webhooks): once it stopped, its replica never
// delivered a webhook again, with /health ok.
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { AlertRuleBook, SecretSeal, startAccounts } from '../api/accounts/index.js';
import { DELIVERY_GROUP, startAlerting } from '../api/alerts/index.js';
import type { Alerting } from '../api/alerts/index.js';
import { Catalog, LiveBoard, OpportunityBoard, startChangelogViews } from '../api/views/index.js';
import { Harness, T0 as BOARD_T0, event, ml } from '../pipeline/opportunities/fixtures/builders.js';
import { opportunityRecords } from '../pipeline/opportunities/index.js';
import { MemoryBus } from '../pipeline/bus/index.js';
import type { Bus } from '../pipeline/bus/index.js';
import type { OlapStore } from '../pipeline/store/index.js';
import { TOPICS } from '../schemas/index.js';
import { failingFirstConsumer, lostTheBrokers } from '../test/support/failing-consumer.js';
import type { OddsChange } from '../schemas/index.js';
import { stageFailureHandler } from './failure-policy.js';
import { RuntimeHealth } from './health.js';

const logger = pino({ level: 'silent' });
const T0 = Date.UTC(2026, 10, 29, 2);

function change(selection: 'home' | 'away', price: number): OddsChange {
  return {
    key: selection,
    eventId: 'nba-1',
    changedAt: T0,
    row: {
      id: `id-${selection}`,
      eventId: 'nba-1',
      book: 'pinnacle',
      market: 'moneyline',
      selection,
      line: null,
      participant: null,
      statCategory: null,
      priceAmerican: price,
      priceDecimal: 1 + price / 100,
      probability: 100 / (price + 100),
      ts: T0,
      oddsChangedAt: T0,
      observedAt: T0,
      isLive: false,
      bookEventId: 'pin-1',
      selectionId: null,
      isActive: true,
      suspendedSince: null,
    },
  };
}

/** A store that only takes the writes: every replica here starts from an empty one. */
const store: OlapStore = {
  kind: 'chdb',
  exec: async () => undefined,
  insert: async () => undefined,
  query: async () => [],
  close: async () => undefined,
};

async function settle(): Promise<void> {
  await new Promise((r) => setTimeout(r, 150));
}

describe("an API replica's odds view whose consumer failed", () => {
  it('starts again after it lost the brokers, and the board reaches what the changelog says', async () => {
    const memory = new MemoryBus();
    const board = new LiveBoard();
    const health = new RuntimeHealth();
    const policy = stageFailureHandler(health, logger, undefined, { retries: { attempts: 5, firstDelayMs: 10, windowMs: 60_000 } });
    const bus = failingFirstConsumer(memory, { groupId: 'api-r1-odds', error: lostTheBrokers() });
    const views = startChangelogViews(bus, board, 'r1', logger, undefined, undefined, undefined, policy);
    const send = (c: OddsChange): Promise<void> =>
      memory.producer().send(TOPICS.snapshot, [{ key: c.key, partitionKey: c.eventId, value: c }]);
    await send(change('home', 120));
    await settle();
    await send(change('home', 125));
    await send(change('away', 150));
    await settle();
    expect(board.row('nba-1', 'home')?.priceAmerican).toBe(125);
    expect(board.row('nba-1', 'away')?.priceAmerican).toBe(150);
    expect(health.failed).toBe(false);
    await Promise.all(views.map((v) => v.stop()));
    await memory.close();
  });

  it('takes the process down on any other failure, instead of serving a frozen board with /health ok', async () => {
    const memory = new MemoryBus();
    const board = new LiveBoard();
    const health = new RuntimeHealth();
    const fatal: string[] = [];
    const policy = stageFailureHandler(health, logger, (reason) => fatal.push(reason));
    const bus = failingFirstConsumer(memory, { groupId: 'api-r1-odds', error: new Error('cannot apply') });
    const views = startChangelogViews(bus, board, 'r1', logger, undefined, undefined, undefined, policy);
    await memory.producer().send(TOPICS.snapshot, [{ key: 'home', partitionKey: 'nba-1', value: change('home', 120) }]);
    await settle();
    expect(health.check()).toEqual({ status: 'down', message: 'stage failed: cannot apply' });
    expect(fatal).toEqual(['stage failed: cannot apply']);
    await Promise.all(views.map((v) => v.stop()));
    await memory.close();
  });
});

describe("an API replica's accounts consumer that lost the brokers", () => {
  it('starts again, so a key revoked on another replica is refused here too', async () => {
    const memory = new MemoryBus();
    const health = new RuntimeHealth();
    const policy = stageFailureHandler(health, logger, undefined, { retries: { attempts: 5, firstDelayMs: 10, windowMs: 60_000 } });
    const a = await startAccounts({ bus: memory, store, replicaId: 'a', logger });
    const b = await startAccounts({
      bus: failingFirstConsumer(memory, { groupId: 'api-accounts-b', error: lostTheBrokers() }),
      store,
      replicaId: 'b',
      logger,
      onFailure: policy,
    });
    const account = await a.accounts.createAccount('Acme');
    const key = await a.accounts.createKey(account.id, { tier: 'pro', name: 'first' });
    await settle();
    expect(b.keys.lookup(key.secret)?.tier).toBe('pro');
    await a.accounts.revokeKey(key.record.id);
    await settle();
    expect(b.keys.lookup(key.secret)).toBeUndefined();
    expect(health.failed).toBe(false);
    await Promise.all([a.stop(), b.stop()]);
    await memory.close();
  });
});

describe("an API replica's alert delivery lease whose consumer failed", () => {
  const seal = new SecretSeal(Buffer.alloc(32, 1));

  /** A replica's alerting over `bus` with one +EV rule, the rule ids it posts for in `posted`. */
  function replica(bus: Bus, posted: string[], onFailure: ReturnType<typeof stageFailureHandler>) {
    const rules = new AlertRuleBook();
    rules.apply({
      id: 'alert_1',
      accountId: 'acct_1',
      keyId: 'key_1',
      tier: 'sharp',
      name: null,
      kind: 'ev',
      filtersJson: '{}',
      webhookUrl: 'https://hooks.example/ev',
      secret: seal.seal('whsec_test'),
      createdAt: BOARD_T0,
      updatedAt: BOARD_T0,
      active: true,
      deletedAt: null,
      version: 1,
    });
    const board = new OpportunityBoard();
    const alerting: Alerting = startAlerting({
      bus,
      store,
      rules,
      board,
      catalog: new Catalog(),
      now: () => BOARD_T0,
      lines: () => new Map(),
      logger,
      seal,
      post: async (_url, _headers, body) => {
        posted.push((JSON.parse(body) as { rule_id: string }).rule_id);
        return 204;
      },
      onFailure,
    });
    const h = new Harness();
    const apply = (changes: ReturnType<Harness['ticks']>): void => {
      for (const r of opportunityRecords(changes)) board.apply(r.key, r.value);
    };
    apply(h.event(event()));
    apply(h.ticks(ml('pinnacle', -110, -110)));
    /** DraftKings' away price against Pinnacle's -110/-110: +EV from about +101 up. */
    const price = (away: number): void => apply(h.ticks(ml('draftkings', -115, away)));
    return { alerting, price };
  }

  /** A record on the accounts topic: the lease's consumer gets a batch, and the failing one fails after it. */
  const touchAccounts = (memory: MemoryBus): Promise<void> =>
    memory.producer().send(TOPICS.accounts, [{ key: 'account:acct_2', value: null }]);

  it('starts again after it lost the brokers, so the replica delivers webhooks again', async () => {
    const memory = new MemoryBus();
    const health = new RuntimeHealth();
    const policy = stageFailureHandler(health, logger, undefined, { retries: { attempts: 5, firstDelayMs: 10, windowMs: 60_000 } });
    const posted: string[] = [];
    const { alerting, price } = replica(failingFirstConsumer(memory, { groupId: DELIVERY_GROUP, error: lostTheBrokers() }), posted, policy);
    await settle();
    expect(alerting.delivering()).toBe(true);
    await touchAccounts(memory);
    await settle();
    // Before the fix the lease stayed out of its group: delivering() false, nothing posted, ever.
    expect(alerting.delivering()).toBe(true);
    price(110);
    await settle();
    expect(posted).toEqual(['alert_1']);
    expect(health.failed).toBe(false);
    await alerting.stop();
    await memory.close();
  });

  it('takes the process down on any other failure, instead of a replica that silently never delivers', async () => {
    const memory = new MemoryBus();
    const health = new RuntimeHealth();
    const fatal: string[] = [];
    const policy = stageFailureHandler(health, logger, (reason) => fatal.push(reason));
    const { alerting } = replica(
      failingFirstConsumer(memory, { groupId: DELIVERY_GROUP, error: new Error('lease lost its mind') }),
      [],
      policy,
    );
    await settle();
    await touchAccounts(memory);
    await settle();
    expect(health.check()).toEqual({ status: 'down', message: 'stage failed: lease lost its mind' });
    expect(fatal).toEqual(['stage failed: lease lost its mind']);
    await alerting.stop();
    await memory.close();
  });
});
