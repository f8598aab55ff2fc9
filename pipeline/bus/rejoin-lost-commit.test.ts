/**
 * What went wrong: a Kafka consumer whose client crashed (librdkafka's mock cluster refusing a
 * SyncGroup, which kafkajs does not survive) left its group and joined again as a new member,
 * but the bus kept its queues and took the partitions it was given back as never lost. A commit
 * sent while the client was stopping went nowhere (kafkajs drops it without a word once its
 * runner stopped), the client then fetched again from the group's older commit, and the queue
 * skipped those records as already taken: nobody delivered or committed them again, and the
 * group's lag stayed above 0 until newer records came, for good once the input ended (as in the
 * chaos run's drain, whose lag stayed at 566 for 180 s). A member that left the group now loses
 * what it held, and the join that follows resumes its partitions from the group's commit.
 */
import { describe, expect, it, vi } from 'vitest';
import { KAFKA_API, KAFKA_ERROR, mockKafkaUnavailable } from '../../test/support/mock-kafka.js';
import { recordingConsumer, rejoiningBusEachTest, sendKey } from '../../test/support/rejoining-bus.js';

const unavailable = mockKafkaUnavailable();
if (unavailable) console.warn(`skipping the rejoin commit test: ${unavailable}`);

const waiting = { timeout: 30_000, interval: 50 };

describe.skipIf(unavailable !== null)('a Kafka consumer whose client crashed and joined its group again', () => {
  const t = rejoiningBusEachTest();

  it('commits a record it had handled while its commit was lost in the crash, and the group comes to lag 0', async () => {
    const assignments: string[] = [];
    const { consumer, seen, failed } = recordingConsumer(t.bus, {
      groupId: 'rejoin-commit',
      onAssign: async (partitions, committed) => {
        assignments.push(`gained ${partitions.join(',')} from ${partitions.map((p) => committed('odds.ticks.raw', p)).join(',')}`);
      },
      onRevoke: (partitions) => assignments.push(`lost ${partitions.join(',')}`),
    });
    await sendKey(t.bus, 'first');
    await vi.waitFor(() => expect([seen, consumer.lag()]).toEqual([['first'], 0]), waiting);

    // The group refuses the next commits (as during a rebalance), so kafkajs is still trying to
    // commit the next record when its member is told of a rebalance and the group refuses its
    // SyncGroup: the client crashes, and drops that commit.
    await t.kafka.refuseNext(KAFKA_API.OffsetCommit, KAFKA_ERROR.REBALANCE_IN_PROGRESS, 20);
    await sendKey(t.bus, 'second');
    await vi.waitFor(() => expect(seen).toEqual(['first', 'second']), waiting);
    await t.kafka.refuseNext(KAFKA_API.SyncGroup, KAFKA_ERROR.INVALID_REQUEST, 1);
    await t.kafka.refuseNext(KAFKA_API.Heartbeat, KAFKA_ERROR.REBALANCE_IN_PROGRESS, 1);
    await vi.waitFor(() => expect(t.rejoins).toHaveLength(1), waiting);

    // No record comes after it: before the fix the lag stayed at 1.
    await vi.waitFor(() => expect(consumer.lag()).toBe(0), waiting);
    expect(failed()).toBeNull();
    // Delivered again from the group's commit: at least once on the bus (a stage skips what its process handled).
    expect(seen.filter((k) => k === 'second').length).toBeGreaterThanOrEqual(1);
    expect(consumer.assignment()).toEqual([0, 1, 2, 3]);
    // Left and joined again as a new member: what it held was lost, and what it was given was
    // gained afresh, resumed from the group's commit (before the fix: gained once, never lost).
    expect(assignments[0]).toBe('gained 0,1,2,3 from 0,0,0,0');
    expect(assignments.map((a) => a.split(' from ')[0])).toEqual(['gained 0,1,2,3', 'lost 0,1,2,3', 'gained 0,1,2,3']);
  }, 90_000);
});
