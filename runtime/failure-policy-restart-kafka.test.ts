// The restart cases of failure-policy-restart.test.ts on librdkafka's mock cluster: there the
// failed consumer's uncommitted batch comes back from the broker to a consumer that rejoined the
// group, which the in-process bus only imitates.
import { KafkaBus } from '../pipeline/bus/index.js';
import { describeCommittingStageRestart } from '../test/support/committing-stage-restart.js';
import { mockKafkaUnavailable, startMockKafka } from '../test/support/mock-kafka.js';
import { describe, it } from 'vitest';

const unavailable = mockKafkaUnavailable();
if (unavailable !== null) {
  process.stdout.write(`skipping the Kafka restart cases: ${unavailable}\n`);
  describe('a committing stage restarted on Kafka', () => it.skip(`needs the mock cluster: ${unavailable}`, () => undefined));
} else {
  describeCommittingStageRestart(
    'Kafka mock cluster',
    async () => {
      const kafka = await startMockKafka();
      const bus = new KafkaBus({ brokers: kafka.brokers, sessionTimeoutMs: 6000 });
      return {
        bus,
        close: async () => {
          await bus.close();
          kafka.stop();
        },
      };
    },
    30_000,
    2000,
  );
}
