import kafkajs from 'kafkajs';
import type { PartitionAssigner } from 'kafkajs';

// kafkajs is CommonJS: Node's ESM loader sees only some of its exports by name.
const { AssignerProtocol, KafkaJSNonRetriableError } = kafkajs;

export const CO_PARTITIONED_ASSIGNER = 'CoPartitionedAssigner';

/** The cluster's topics are not co-partitioned as this process is configured: no retry fixes that. */
export class NotCoPartitionedError extends KafkaJSNonRetriableError {}

/**
 * Kafka group assignment for co-partitioned topics: partition p of every subscribed topic goes to
 * the same member (members sorted by id, partition p to member p mod n). kafkajs's default
 * round-robin deals out topic-partitions one by one, so with three members `events` p0 and
 * `odds.snapshot` p0 land on different processes, and an event's odds meet its event record
 * nowhere. This is what lets a stage that reads several topics keep one state per event.
 *
 * It refuses (a non-retriable error: the members' stages fail, visibly) topics whose partition
 * counts differ from each other or from the configured ones: producers pick partitions by the
 * configured count, so such a cluster would split events across processes without a word.
 */
export function coPartitionedAssigner(configured: Readonly<Record<string, number>>): PartitionAssigner {
  return ({ cluster }) => ({
    name: CO_PARTITIONED_ASSIGNER,
    version: 0,
    async assign({ members, topics }) {
      const ids = members.map((m) => m.memberId).sort();
      const assignment = new Map<string, Record<string, number[]>>(ids.map((id) => [id, Object.create(null) as Record<string, number[]>]));
      const counts = topics.map((topic) => [topic, cluster.findTopicPartitionMetadata(topic).length] as const).filter(([, n]) => n > 0);
      for (const [topic, n] of counts) {
        const expected = configured[topic];
        if ((expected !== undefined && n !== expected) || n !== counts[0]?.[1]) {
          throw new NotCoPartitionedError(
            `topics ${counts.map(([t, c]) => `${t} (${c} partitions)`).join(', ')} are not co-partitioned as configured (${topic} must have ${expected ?? counts[0]?.[1]})`,
          );
        }
      }
      for (const topic of [...topics].sort()) {
        for (const { partitionId } of cluster.findTopicPartitionMetadata(topic)) {
          const mine = assignment.get(ids[partitionId % ids.length] ?? '');
          if (mine) (mine[topic] ??= []).push(partitionId);
        }
      }
      return [...assignment].map(([memberId, partitions]) => ({
        memberId,
        memberAssignment: AssignerProtocol.MemberAssignment.encode({ version: 0, assignment: partitions, userData: Buffer.alloc(0) }),
      }));
    },
    protocol({ topics }) {
      return {
        name: CO_PARTITIONED_ASSIGNER,
        metadata: AssignerProtocol.MemberMetadata.encode({ version: 0, topics, userData: Buffer.alloc(0) }),
      };
    },
  });
}
