// In chaos, an API replica restarted near the end served a board that lacked rows the other
// replica had, through a whole 120-s settle wait, with /health ok. Its views ran without a
// failure policy: a view consumer that lost the brokers while the process started (the Kafka
// client gives such a consumer up: `KafkaJSConnectionError: write after end`, as a pipeline
// process met under the same kills) stopped for good, and the board stayed frozen at whatever
// it had loaded. The views now run under the runtime's failure policy like the pipeline's stages.
// The replica's accounts consumer had the same gap, with a worse outcome: a key revoked on
// another replica kept working here for good.
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { startAccounts } from '../api/accounts/index.js';
import { LiveBoard, startChangelogViews } from '../api/views/index.js';
import { MemoryBus } from '../pipeline/bus/index.js';
import type { Bus, Consumer, ConsumerOptions } from '../pipeline/bus/index.js';
import type { OlapStore } from '../pipeline/store/index.js';
import { TOPICS } from '../schemas/index.js';
import type { OddsChange, TopicName } from '../schemas/index.js';
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

/** A bus whose first consumer of `groupId` fails with `error` after its first batch, and stops, as the Kafka adapter's does. */
function failingOnce(bus: MemoryBus, groupId: string, error: Error): Bus {
  let failed = false;
  return {
    producer: () => bus.producer(),
    readToEnd: bus.readToEnd.bind(bus),
    close: () => bus.close(),
    consumer<T extends TopicName>(options: ConsumerOptions<T>): Consumer<T> {
      const inner = bus.consumer(options);
      if (failed || options.groupId !== groupId) return inner;
      failed = true;
      let fail: (e: Error) => void = () => {};
      const done = new Promise<void>((_, reject) => (fail = reject));
      done.catch(() => undefined);
      return {
        done,
        stop: () => inner.stop(),
        lag: () => inner.lag(),
        assignment: () => inner.assignment(),
        run(handler) {
          inner.run(async (batch) => {
            await handler(batch);
            fail(error);
            setImmediate(() => void inner.stop());
          });
        },
      };
    },
  };
}

function lostTheBrokers(): Error {
  return Object.assign(new Error('write after end'), { name: 'KafkaJSConnectionError' });
}

async function settle(): Promise<void> {
  await new Promise((r) => setTimeout(r, 150));
}

describe("an API replica's odds view whose consumer failed", () => {
  it('starts again after it lost the brokers, and the board reaches what the changelog says', async () => {
    const memory = new MemoryBus();
    const board = new LiveBoard();
    const health = new RuntimeHealth();
    const policy = stageFailureHandler(health, logger, undefined, { retries: { attempts: 5, firstDelayMs: 10, windowMs: 60_000 } });
    const bus = failingOnce(memory, 'api-r1-odds', lostTheBrokers());
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
    const bus = failingOnce(memory, 'api-r1-odds', new Error('cannot apply'));
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
    // The store only has to take the writes: both replicas start from an empty one.
    const store: OlapStore = {
      kind: 'chdb',
      exec: async () => undefined,
      insert: async () => undefined,
      query: async () => [],
      close: async () => undefined,
    };
    const health = new RuntimeHealth();
    const policy = stageFailureHandler(health, logger, undefined, { retries: { attempts: 5, firstDelayMs: 10, windowMs: 60_000 } });
    const a = await startAccounts({ bus: memory, store, replicaId: 'a', logger });
    const b = await startAccounts({
      bus: failingOnce(memory, 'api-accounts-b', lostTheBrokers()),
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
