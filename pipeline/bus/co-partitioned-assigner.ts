import { AssignerProtocol } from 'kafkajs';
import type { PartitionAssigner } from 'kafkajs';

export const CO_PARTITIONED_ASSIGNER = 'CoPartitionedAssigner';

/**
 * Kafka group assignment for co-partitioned topics: partition p of every subscribed topic goes to
 * the same member (members sorted by id, partition p to member p mod n). kafkajs's default
 * round-robin deals out topic-partitions one by one, so with three members `events` p0 and
 * `odds.snapshot` p0 land on different processes, and an event's odds meet its event record
 * nowhere. This is what lets a stage that reads several topics keep one state per event.
 */
export const coPartitionedAssigner: PartitionAssigner = ({ cluster }) => ({
  name: CO_PARTITIONED_ASSIGNER,
  version: 0,
  async assign({ members, topics }) {
    const ids = members.map((m) => m.memberId).sort();
    const assignment = new Map<string, Record<string, number[]>>(ids.map((id) => [id, Object.create(null) as Record<string, number[]>]));
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
    return { name: CO_PARTITIONED_ASSIGNER, metadata: AssignerProtocol.MemberMetadata.encode({ version: 0, topics, userData: Buffer.alloc(0) }) };
  },
});
