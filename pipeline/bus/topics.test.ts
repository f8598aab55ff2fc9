// A topic creation that failed was swallowed (`ensureTopics().catch(() => undefined)`): a
// cluster that neither created the topics nor auto-created them left the process running with
// producers failing later, and one that auto-created them at another partition count said nothing.
import { describe, expect, it } from 'vitest';
import type { TopicConfig } from '../../schemas/index.js';
import { TopicsUnavailableError, ensureTopics } from './topics.js';
import type { TopicAdmin } from './topics.js';

const CLEAN = { created: [], autoCreated: [], createError: null, wider: [], notCompacted: [], policiesUnknown: null, headDeleted: [] };

const CONFIGS: Record<string, TopicConfig> = {
  'odds.ticks': { partitions: 4, compacted: false },
  events: { partitions: 4, compacted: true },
  accounts: { partitions: 1, compacted: true },
};

/** A cluster holding `topics`, whose CreateTopics and auto-creation behave as told. */
function cluster(
  topics: Record<string, number>,
  behaviour: {
    create: 'ok' | 'refuse';
    autoCreate: number | null;
    /** Policies of the topics that exist before the start (created ones get theirs); null: DescribeConfigs refused. */
    policies?: Record<string, string> | null;
    /** Where partitions' logs start, by topic (missing: every partition at 0). */
    logStarts?: Record<string, number[]>;
  },
): TopicAdmin & { created: string[] } {
  const existing = new Map(Object.entries(topics));
  const policies = new Map(Object.entries(behaviour.policies ?? {}));
  const created: string[] = [];
  return {
    created,
    cleanupPolicies: async (names) => {
      if (behaviour.policies === null) throw new Error('Broker 0 not found in the cached metadata');
      return new Map(names.map((n) => [n, policies.get(n) ?? 'delete']));
    },
    logStarts: async (topic) =>
      (behaviour.logStarts?.[topic] ?? new Array<number>(existing.get(topic) ?? 0).fill(0)).map((logStart, partition) => ({
        partition,
        logStart,
      })),
    partitionCounts: async (names) => new Map(names.flatMap((n) => (existing.has(n) ? [[n, existing.get(n) ?? 0] as const] : []))),
    create: async (list) => {
      if (behaviour.create === 'refuse') throw new Error('Broker 0 not found in the cached metadata');
      for (const t of list) {
        existing.set(t.topic, t.partitions);
        policies.set(t.topic, t.compacted ? 'compact' : 'delete');
        created.push(`${t.topic}:${t.partitions}:${t.compacted ? 'compact' : 'delete'}`);
      }
    },
    autoCreate: async (names) => {
      if (behaviour.autoCreate === null) return;
      for (const n of names) existing.set(n, behaviour.autoCreate);
    },
  };
}

describe('ensureTopics', () => {
  it('creates the missing topics with their configured partition counts and cleanup policies, and leaves existing ones alone', async () => {
    const admin = cluster({ events: 4 }, { create: 'ok', autoCreate: null, policies: { events: 'compact' } });
    const report = await ensureTopics(admin, CONFIGS);
    expect(admin.created).toEqual(['odds.ticks:4:delete', 'accounts:1:compact']);
    expect(report).toEqual({ ...CLEAN, created: ['odds.ticks', 'accounts'] });
  });

  it('accepts a cluster that refuses CreateTopics but auto-creates topics on first use, and reports what it made', async () => {
    const report = await ensureTopics(cluster({}, { create: 'refuse', autoCreate: 4 }), CONFIGS);
    expect(report).toEqual({
      ...CLEAN,
      autoCreated: ['odds.ticks', 'events', 'accounts'],
      createError: 'Broker 0 not found in the cached metadata',
      wider: [{ topic: 'accounts', partitions: 4, configured: 1 }],
      // The brokers' default policy: the changelogs among them now lose what ages out.
      notCompacted: [
        { topic: 'events', policy: 'delete' },
        { topic: 'accounts', policy: 'delete' },
      ],
    });
  });

  it('refuses to start when topics are missing and the cluster neither creates nor auto-creates them, naming them and why', async () => {
    const run = ensureTopics(cluster({ events: 4 }, { create: 'refuse', autoCreate: null }), CONFIGS);
    await expect(run).rejects.toThrow(TopicsUnavailableError);
    await expect(run).rejects.toThrow(
      'Kafka topics odds.ticks, accounts are missing and cannot be created (Broker 0 not found in the cached metadata)',
    );
  });

  it('refuses topics with fewer partitions than configured: producers would write to partitions that do not exist', async () => {
    await expect(
      ensureTopics(cluster({ 'odds.ticks': 4, events: 2, accounts: 1 }, { create: 'ok', autoCreate: null }), CONFIGS),
    ).rejects.toThrow('events has 2 (configured 4)');
  });

  it('names the changelogs whose cleanup policy would delete records: a restore after retention misses keys', async () => {
    const report = await ensureTopics(
      cluster(
        { 'odds.ticks': 4, events: 4, accounts: 1 },
        { create: 'ok', autoCreate: null, policies: { events: 'compact,delete', accounts: 'compact' } },
      ),
      CONFIGS,
    );
    expect(report).toEqual({ ...CLEAN, notCompacted: [{ topic: 'events', policy: 'compact,delete' }] });
  });

  it('names changelog partitions whose log no longer starts at 0, and ignores a deleting topic that moved its start', async () => {
    const report = await ensureTopics(
      cluster(
        { 'odds.ticks': 4, events: 4, accounts: 1 },
        {
          create: 'ok',
          autoCreate: null,
          policies: { events: 'compact', accounts: 'compact' },
          logStarts: { 'odds.ticks': [9, 9, 9, 9], events: [0, 33350, 0, 12] },
        },
      ),
      CONFIGS,
    );
    expect(report).toEqual({
      ...CLEAN,
      headDeleted: [
        { topic: 'events', partition: 1, logStart: 33350 },
        { topic: 'events', partition: 3, logStart: 12 },
      ],
    });
  });

  it('says why the policies are unknown when the cluster does not describe topic configs, and still checks where the logs start', async () => {
    const report = await ensureTopics(
      cluster(
        { 'odds.ticks': 4, events: 4, accounts: 1 },
        { create: 'ok', autoCreate: null, policies: null, logStarts: { accounts: [5] } },
      ),
      CONFIGS,
    );
    expect(report).toEqual({
      ...CLEAN,
      policiesUnknown: 'Broker 0 not found in the cached metadata',
      headDeleted: [{ topic: 'accounts', partition: 0, logStart: 5 }],
    });
  });
});
