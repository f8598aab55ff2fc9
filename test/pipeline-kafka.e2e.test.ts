import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { LEAGUES, TEAMS, TOPICS } from '../schemas/index.js';
import type { OddsChange, Opportunity, RawTick } from '../schemas/index.js';
import { KafkaBus, NO_BATCH } from '../pipeline/bus/index.js';
import { ManualClock } from '../pipeline/clock.js';
import { startPipeline } from '../pipeline/pipeline.js';
import { ChdbStore, applyMigrations } from '../pipeline/store/index.js';
import { mockKafkaUnavailable, startMockKafka } from './support/mock-kafka.js';
import { exchangeRawTick } from './support/exchange-tick.js';
import { rawTick } from './support/raw-tick.js';

const unavailable = mockKafkaUnavailable();
if (unavailable) console.warn(`skipping the pipeline-on-Kafka test: ${unavailable}`);

const T0 = Date.UTC(2026, 10, 22, 0, 30);

const raw = (over: Partial<RawTick>): RawTick => rawTick(T0, over);

/** A mock Kafka cluster, a bus on it and a migrated chDB store for `run`, all closed after it. */
async function onMockKafka(run: (bus: KafkaBus, store: ChdbStore) => Promise<void>): Promise<void> {
  const kafka = await startMockKafka();
  const dir = mkdtempSync(join(tmpdir(), 'odds-kafka-'));
  const store = new ChdbStore(dir);
  const bus = new KafkaBus({ brokers: kafka.brokers, sessionTimeoutMs: 6000 });
  try {
    await applyMigrations(store);
    await run(bus, store);
  } finally {
    await bus.close();
    await store.close();
    kafka.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.skipIf(unavailable !== null)('the pipeline on Kafka (librdkafka mock cluster)', () => {
  it('runs the same processors unchanged: raw ticks in, exact snapshot changes and ClickHouse rows out', async () => {
    await onMockKafka(async (bus, store) => {
      const clock = new ManualClock(T0);
      const pipeline = startPipeline({
        bus,
        store,
        clock,
        logger: pino({ level: 'silent' }),
        catalog: { teams: TEAMS, leagues: LEAGUES },
        sinkMaxWaitMs: 0,
      });
      const changes: OddsChange[] = [];
      const watcher = bus.consumer({ groupId: 'test-watcher', topic: TOPICS.snapshot, fromBeginning: true });
      watcher.run(async (b) => {
        for (const r of b.records) if (r.value) changes.push(r.value);
      });

      const ticks = [
        raw({}),
        raw({
          book: 'draftkings',
          bookEventId: '9001',
          homeTeam: 'LA Lakers',
          awayTeam: 'Celtics',
          outcome: 'Celtics',
          priceAmerican: 105,
        }),
        raw({ priceAmerican: -125, ts: T0 - 1800_000 }),
        raw({
          book: 'draftkings',
          bookEventId: '9001',
          homeTeam: 'LA Lakers',
          awayTeam: 'Celtics',
          outcome: 'Celtics',
          priceAmerican: null,
          status: 'suspended',
        }),
      ];
      await bus.producer().send(
        TOPICS.rawTicks,
        ticks.map((t) => ({ key: `${t.book}:${t.bookEventId}`, partitionKey: t.league, value: t })),
        NO_BATCH,
      );

      const end = Date.now() + 30_000;
      while (changes.length < 4 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      expect(changes.map((c) => [c.row?.book ?? null, c.row?.selection ?? null, c.row?.priceAmerican ?? null])).toEqual([
        ['pinnacle', 'home', -120],
        ['draftkings', 'away', 105],
        ['pinnacle', 'home', -125],
        [null, null, null],
      ]);
      expect(new Set(changes.map((c) => c.eventId))).toEqual(new Set(['nba-20261122-bos-lal']));

      let rows = 0;
      while (rows < 4 && Date.now() < end) {
        rows = Number((await store.query<{ n: string }>('SELECT count() AS n FROM odds_ticks'))[0]?.n);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(rows).toBe(4);
      await watcher.stop();
      await pipeline.stop();
    });
  }, 90_000);

  it('searches at the lowest rate an account has, learnt from the accounts topic alone', async () => {
    await onMockKafka(async (bus, store) => {
      const pipeline = startPipeline({
        bus,
        store,
        clock: new ManualClock(T0),
        logger: pino({ level: 'silent' }),
        catalog: { teams: TEAMS, leagues: LEAGUES },
        sinkMaxWaitMs: 0,
      });
      const seen: Opportunity[] = [];
      const watcher = bus.consumer({ groupId: 'test-watcher', topic: TOPICS.opportunities, fromBeginning: true });
      watcher.run(async (b) => {
        for (const r of b.records) if (r.value?.kind === 'arbitrage') seen.push(r.value);
      });
      const producer = bus.producer();
      const setRate = (version: number, exchangeCommission: number | null) =>
        producer.send(
          TOPICS.accounts,
          [
            {
              key: 'account:a',
              partitionKey: 'account:a',
              value: { kind: 'account', account: { id: 'a', name: 'a', createdAt: T0, version, exchangeCommission } },
            },
          ],
          NO_BATCH,
        );
      // Caesars' home +138 against a lay of home at 2.32 on a 5 % exchange: an arbitrage at 2 % only.
      const start = T0 + 86_400_000;
      const ticks = [
        exchangeRawTick(start, 'Los Angeles Lakers', { back: 2.3, backSize: 100, lay: 2.32, laySize: 40 }),
        exchangeRawTick(start, 'Boston Celtics', { back: 1.68, backSize: 100, lay: 1.7, laySize: 40 }),
        rawTick(start, { book: 'caesars', bookEventId: 'c-1', priceAmerican: 138 }),
        rawTick(start, { book: 'caesars', bookEventId: 'c-1', outcome: 'Boston Celtics', priceAmerican: -300 }),
      ];
      await producer.send(
        TOPICS.rawTicks,
        ticks.map((t) => ({ key: `${t.book}:${t.bookEventId}`, partitionKey: t.league, value: t })),
        NO_BATCH,
      );
      await setRate(1, 2);
      const until = async (n: number): Promise<void> => {
        const end = Date.now() + 30_000;
        while (seen.length < n && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      };
      await until(1);
      expect(seen.map((o) => [o.kind === 'arbitrage' ? o.foundAtCommission : null, o.value, o.expiredAt === null])).toEqual([
        [2, 0.5393, true],
      ]);
      await setRate(2, 5);
      await until(2);
      expect(seen.map((o) => [o.expiredAt === null, o.expireReason])).toEqual([
        [true, null],
        [false, 'condition'],
      ]);
      await watcher.stop();
      await pipeline.stop();
    });
  }, 90_000);
});
