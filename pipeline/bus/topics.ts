import type { TopicConfig } from '../../schemas/index.js';

/** What `ensureTopics` needs of a Kafka cluster (kafkajs's admin in `KafkaBus`, a fake in tests). */
export interface TopicAdmin {
  /** The partition count of each of these topics that exists; missing ones are left out. */
  partitionCounts(topics: readonly string[]): Promise<Map<string, number>>;
  /** Creates topics through the controller (CreateTopics). */
  create(topics: readonly { topic: string; partitions: number; compacted: boolean }[]): Promise<void>;
  /**
   * Asks for these topics' metadata with auto-creation allowed: a broker with
   * `auto.create.topics.enable` creates them then, at its default partition count.
   */
  autoCreate(topics: readonly string[]): Promise<void>;
}

/** What the cluster looked like once every topic existed: logged at start. */
export interface TopicReport {
  /** Created now, with their configured partition counts and cleanup policies. */
  created: string[];
  /** Refused by CreateTopics and created by the broker on first use instead, at its default count and cleanup policy. */
  autoCreated: string[];
  /** Why CreateTopics was refused, when it was. */
  createError: string | null;
  /** Topics with more partitions than configured: producers use only the first ones. */
  wider: { topic: string; partitions: number; configured: number }[];
}

/** Topics are missing and cannot be created, or are narrower than producers need: the process must not start. */
export class TopicsUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TopicsUnavailableError';
  }
}

/** The first line of an error's message (kafkajs appends stacks and broker hints below it). */
export function messageOf(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';
}

/**
 * Makes every configured topic exist before anything is produced or consumed. Missing topics
 * are created with their partition counts and cleanup policies; a cluster that refuses
 * CreateTopics (no rights, or no controller, like librdkafka's mock cluster) is tolerated only
 * if its brokers create the topics on first use. A topic still missing after that, or one with
 * fewer partitions than configured (producers pick partitions by the configured count), throws
 * `TopicsUnavailableError` naming them. More partitions than configured only waste the extra
 * ones (and a co-partitioned consumer group refuses them with its own error): reported.
 */
export async function ensureTopics(admin: TopicAdmin, configs: Readonly<Record<string, TopicConfig>>): Promise<TopicReport> {
  const names = Object.keys(configs);
  const report: TopicReport = { created: [], autoCreated: [], createError: null, wider: [] };
  let counts = await admin.partitionCounts(names);
  const missing = names.filter((t) => !counts.has(t));
  if (missing.length > 0) {
    try {
      await admin.create(
        missing.map((topic) => ({ topic, partitions: configs[topic]?.partitions ?? 1, compacted: configs[topic]?.compacted ?? false })),
      );
      report.created = missing;
    } catch (e) {
      report.createError = messageOf(e);
      await admin.autoCreate(missing).catch(() => undefined);
    }
    counts = await admin.partitionCounts(names);
    const still = missing.filter((t) => !counts.has(t));
    if (still.length > 0) {
      throw new TopicsUnavailableError(
        `Kafka topics ${still.join(', ')} are missing and cannot be created (${report.createError ?? 'not visible after creation'}); create them with the partition counts and cleanup policies of docs/architecture.md (Topics), or grant this client CreateTopics`,
      );
    }
    if (report.createError !== null) report.autoCreated = missing;
  }
  const narrower: string[] = [];
  for (const topic of names) {
    const partitions = counts.get(topic) ?? 0;
    const configured = configs[topic]?.partitions ?? partitions;
    if (partitions < configured) narrower.push(`${topic} has ${partitions} (configured ${configured})`);
    else if (partitions > configured) report.wider.push({ topic, partitions, configured });
  }
  if (narrower.length > 0) {
    throw new TopicsUnavailableError(
      `Kafka topics have fewer partitions than configured, so records would go to partitions that do not exist: ${narrower.join(', ')}`,
    );
  }
  return report;
}
