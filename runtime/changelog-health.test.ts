// A replica restarted on a changelog whose head the cluster had deleted restored fewer rows than
// the log's writers held, and nothing said so: its /health read ok while it served an incomplete
// board (the chaos run of stop 46 on librdkafka's mock cluster, which keeps about 5 MB of a partition).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { mockKafkaUnavailable, startMockKafka } from '../test/support/mock-kafka.js';
import { makeBus } from './bus.js';
import { loadConfig } from './config.js';
import { RuntimeHealth } from './health.js';
import { systemClock } from '../pipeline/clock.js';

const unavailable = mockKafkaUnavailable();
if (unavailable) process.stdout.write(`skipping the changelog health test: ${unavailable}\n`);

const dir = mkdtempSync(join(tmpdir(), 'odds-changelog-health-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(unavailable !== null)('a process starting on Kafka changelogs', () => {
  it('reports degraded health naming each changelog partition that no longer starts at offset 0', async () => {
    const kafka = await startMockKafka({ autoCreate: true });
    const producer = new Kafka({ brokers: kafka.brokers, logLevel: logLevel.NOTHING }).producer({ allowAutoTopicCreation: true });
    const health = new RuntimeHealth();
    try {
      await producer.connect();
      const value = Buffer.alloc(100_000, 1);
      for (let i = 0; i < 80; i++) await producer.send({ topic: 'odds.snapshot', messages: [{ key: `k${i}`, value, partition: 2 }] });
      const config = loadConfig({ ROLE: 'api', KAFKA_BROKERS: kafka.brokers.join(','), DATA_DIR: dir });
      const bus = await makeBus(config, systemClock, pino({ level: 'silent' }), health);
      await bus.close();
      const check = health.check();
      expect(check.status).toBe('degraded');
      expect(check.message).toMatch(
        /^changelog partitions no longer start at offset 0, so this restore may have missed keys: odds\.snapshot\[2\] from [1-9][0-9]*$/,
      );
    } finally {
      await producer.disconnect();
      kafka.stop();
    }
  }, 60_000);

  it('stays healthy on changelogs that start at offset 0', async () => {
    const kafka = await startMockKafka();
    const health = new RuntimeHealth();
    try {
      const config = loadConfig({ ROLE: 'api', KAFKA_BROKERS: kafka.brokers.join(','), DATA_DIR: dir });
      const bus = await makeBus(config, systemClock, pino({ level: 'silent' }), health);
      await bus.close();
      expect(health.check()).toEqual({ status: 'ok', message: 'every stage running' });
    } finally {
      kafka.stop();
    }
  }, 60_000);
});
