/**
 * What went wrong: CI's two-pipeline Kafka test failed because a stage (`normalizer:gamestate`)
 * stopped its process after librdkafka's mock cluster answered a SyncGroup with INVALID_REQUEST.
 * kafkajs does not restart a consumer after that error, so the bus rejoins it itself, but only
 * three times over the consumer's whole life. Two processes starting together rebalance the
 * group again and again: a member refused now and then, never many times in a row, used up its
 * rejoins and its process exited. The count now starts again at every completed join.
 */
import { describe, expect, it, vi } from 'vitest';
import { KAFKA_API, KAFKA_ERROR, mockKafkaUnavailable } from '../../test/support/mock-kafka.js';
import { recordingConsumer, rejoiningBusEachTest, sendKey } from '../../test/support/rejoining-bus.js';

const unavailable = mockKafkaUnavailable();
if (unavailable) console.warn(`skipping Kafka rejoin tests: ${unavailable}`);

describe.skipIf(unavailable !== null)('a Kafka consumer the group refuses', () => {
  const t = rejoiningBusEachTest();

  it('keeps consuming when it is refused three times in a row at every rebalance, each run of refusals ending in a completed join', async () => {
    await t.kafka.refuseNext(KAFKA_API.SyncGroup, KAFKA_ERROR.INVALID_REQUEST, 3);
    const { seen, failed } = recordingConsumer(t.bus, { groupId: 'refused-often' });
    await sendKey(t.bus, 'first');
    await vi.waitFor(() => expect(seen).toEqual(['first']), { timeout: 30_000, interval: 50 });

    // A heartbeat told of a rebalance makes the member join again, and the group refuses it
    // three more times.
    await t.kafka.refuseNext(KAFKA_API.SyncGroup, KAFKA_ERROR.INVALID_REQUEST, 3);
    await t.kafka.refuseNext(KAFKA_API.Heartbeat, KAFKA_ERROR.REBALANCE_IN_PROGRESS, 1);
    await vi.waitFor(() => expect(t.rejoins).toHaveLength(6), { timeout: 30_000, interval: 50 });
    await sendKey(t.bus, 'second');
    await vi.waitFor(() => expect(seen).toEqual(['first', 'second']), { timeout: 30_000, interval: 50 });

    expect(failed()).toBeNull();
    expect(t.rejoins.map((r) => [r.groupId, r.attempt])).toEqual([
      ['refused-often', 1],
      ['refused-often', 2],
      ['refused-often', 3],
      ['refused-often', 1],
      ['refused-often', 2],
      ['refused-often', 3],
    ]);
    expect(t.rejoins[0]?.reason).toMatch(/malformed/);
  }, 90_000);

  it('fails its stage when the group refuses it six times in a row, after five rejoins', async () => {
    await t.kafka.refuseNext(KAFKA_API.SyncGroup, KAFKA_ERROR.INVALID_REQUEST, 6);
    const consumer = t.bus.consumer({ groupId: 'refused-for-good', topic: 'odds.ticks.raw', fromBeginning: true });
    consumer.run(async () => undefined);
    await expect(consumer.done).rejects.toThrow(/malformed/);
    expect(t.rejoins.map((r) => r.attempt)).toEqual([1, 2, 3, 4, 5]);
  }, 60_000);
});
