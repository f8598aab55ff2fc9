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
  /** Each topic's `cleanup.policy` (DescribeConfigs); rejects when the cluster does not answer it. */
  cleanupPolicies(topics: readonly string[]): Promise<Map<string, string>>;
  /** Where each partition's log starts now (the earliest offset a reader can fetch). */
  logStarts(topic: string): Promise<{ partition: number; logStart: number }[]>;
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
  /**
   * Changelogs (configured compacted) whose cleanup policy is not exactly `compact`: a `delete`
   * (a broker default, or an auto-created topic) or `compact,delete` drops a key's last record
   * once it ages out, and every restore after that misses the key.
   */
  notCompacted: { topic: string; policy: string }[];
  /** Why the policies could not be read, when they could not (the check above did not run). */
  policiesUnknown: string | null;
  /**
   * Changelog partitions whose log no longer starts at offset 0. Compaction keeps the first
   * offset, so records there were deleted (retention, DeleteRecords, a test cluster's size
   * limit): a replica restoring from this log now may miss keys whose last record went with them.
   */
  headDeleted: { topic: string; partition: number; logStart: number }[];
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
  const report: TopicReport = {
    created: [],
    autoCreated: [],
    createError: null,
    wider: [],
    notCompacted: [],
    policiesUnknown: null,
    headDeleted: [],
  };
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
  await checkChangelogs(
    admin,
    names.filter((t) => configs[t]?.compacted === true),
    report,
  );
  return report;
}

/**
 * A changelog is only a faithful copy of its state while the log keeps every key's last record:
 * compaction alone, from offset 0. Checked once at start, because a restore reads the log from
 * its head then; what a live reader already holds is not affected by a later deletion.
 */
async function checkChangelogs(admin: TopicAdmin, changelogs: readonly string[], report: TopicReport): Promise<void> {
  if (changelogs.length === 0) return;
  try {
    const policies = await admin.cleanupPolicies(changelogs);
    for (const topic of changelogs) {
      const policy = policies.get(topic) ?? 'unknown';
      if (policy !== 'compact') report.notCompacted.push({ topic, policy });
    }
  } catch (e) {
    report.policiesUnknown = messageOf(e);
  }
  for (const topic of changelogs) {
    for (const { partition, logStart } of await admin.logStarts(topic)) {
      if (logStart > 0) report.headDeleted.push({ topic, partition, logStart });
    }
  }
}
