import { describe, expect, it } from 'vitest';
import { LEAGUES, TEAMS, TOPICS, TOPIC_CONFIGS } from '../../schemas/index.js';
import type { CanonicalEvent, FeedRecord } from '../../schemas/index.js';
import { batchOf, stageHarness } from '../../test/support/stage-context.js';
import { rawTick } from '../../test/support/raw-tick.js';
import { PartitionLostError, assertHeld, partitionFor } from '../bus/index.js';
import type { BusRecord, OutgoingRecord, Producer } from '../bus/index.js';
import { ManualClock } from '../clock.js';
import { MarketSimulator } from '../feeds/simulator/index.js';
import { FuturesNormalizer } from '../futures/index.js';
import { Normalizer } from '../normalize/index.js';
import { SplitsProcessor } from '../splits/index.js';
import { LeagueOwnership } from './league-ownership.js';
import { normalizerStage } from './normalizer.js';

const T0 = Date.UTC(2026, 10, 22, 12);
const catalog = { teams: TEAMS, leagues: LEAGUES };

function stage(now = T0) {
  const harness = stageHarness(now);
  const parts = {
    normalizer: new Normalizer(catalog),
    leagues: new LeagueOwnership(),
    splits: new SplitsProcessor(),
    futuresNormalizer: new FuturesNormalizer(catalog),
    counters: { splitsSnapshots: 0 },
  };
  return { ...harness, parts, spec: normalizerStage(harness.ctx, parts) };
}

describe('the normalizer stage', () => {
  it('sends events, then ticks, then joined splits, then futures quotes, each keyed and partitioned as its topic wants', async () => {
    const sim = new MarketSimulator({ seed: 3, clock: new ManualClock(T0), eventsPerLeague: 1 });
    const input: FeedRecord[] = [...sim.snapshot(), ...sim.splits(T0), ...sim.futures(T0)];
    const { spec, sent, parts } = stage();
    const batch = batchOf(TOPICS.rawTicks, 0, input, () => 'k');
    await spec.handle(batch.records, batch);

    expect(sent.map((s) => s.topic)).toEqual([TOPICS.events, TOPICS.ticks, TOPICS.splits, TOPICS.futures]);
    const [events, ticks, splits, futures] = sent.map((s) => s.records as { key: string; partitionKey?: string; value: never }[]);
    for (const r of events ?? []) expect(r).toEqual({ key: (r.value as { id: string }).id, value: r.value });
    for (const r of ticks ?? []) expect(r).toEqual({ key: (r.value as { eventId: string }).eventId, value: r.value });
    for (const r of splits ?? []) {
      const v = r.value as { key: string; eventId: string };
      expect(r).toEqual({ key: v.key, partitionKey: v.eventId, value: v });
    }
    for (const r of futures ?? []) {
      const v = r.value as { key: string; futureId: string };
      expect(r).toEqual({ key: v.key, partitionKey: v.futureId, value: v });
    }
    expect(ticks?.length).toBe(parts.normalizer.counts.matched);
    expect(parts.counters.splitsSnapshots).toBe(splits?.length);
    expect(splits?.length).toBeGreaterThan(0);
    expect(futures?.length).toBeGreaterThan(0);
  });

  it('sends nothing for tombstones and unmatched ticks', async () => {
    const { spec, sent } = stage();
    // The schedule sweep of the first batch finds nothing to close on an empty normalizer.
    const batch = batchOf(TOPICS.rawTicks, 0, [rawTick(T0, { homeTeam: 'Nobody' })], () => 'k');
    await spec.handle([...batch.records, { ...(batch.records[0] as BusRecord<typeof TOPICS.rawTicks>), value: null }], batch);
    expect(sent).toEqual([]);
  });

  it("sends the events its sweep closed, and nothing of the batch, when a rebalance took the batch's partition before its outputs went out", async () => {
    const { parts, sent, clock, ctx } = stage(T0 + 60_000);
    // Asks before every send whether the batch is still this member's, as the Kafka bus does.
    const producer: Producer = {
      send: async (topic, records, hold) => {
        assertHeld(hold);
        await ctx.producer.send(topic, records, hold);
      },
    };
    const spec = normalizerStage({ ...ctx, producer }, parts);
    const live = batchOf(TOPICS.rawTicks, 0, [rawTick(T0, { isLive: true, ts: T0 + 60_000 })], () => 'k');
    await spec.handle(live.records, live);
    const id = (sent[0]?.records[0]?.value as CanonicalEvent).id;
    const before = sent.length;

    // Six hours after its start, with nobody reporting on it, the next batch's sweep closes it;
    // that batch lists another event, and its partition went to another member meanwhile. The
    // new owner handles that batch again, but not this process's sweep.
    clock.set(T0 + 6 * 3600_000 + 60_000);
    const later = batchOf(TOPICS.rawTicks, 0, [rawTick(T0 + 48 * 3600_000, { bookEventId: 'p-2', ts: T0 + 6 * 3600_000 })], () => 'k', 1);
    await expect(spec.handle(later.records, { ...later, hold: { lost: true } })).rejects.toBeInstanceOf(PartitionLostError);
    expect(
      sent.slice(before).map((s) => [s.topic, s.records.map((r) => [r.key, (r.value as CanonicalEvent | null)?.status ?? null])]),
    ).toEqual([[TOPICS.events, [[id, 'final']]]]);
  });

  it('restores the events of the leagues of its partitions from the events changelog, and forgets them when it loses them', async () => {
    const first = stage();
    const batch = batchOf(TOPICS.rawTicks, 0, [rawTick(T0 + 3 * 3600_000)], () => 'k');
    await first.spec.handle(batch.records, batch);
    expect(first.sent[0]?.topic).toBe(TOPICS.events);
    const event = first.sent[0]?.records[0] as OutgoingRecord<typeof TOPICS.events>;

    const { spec, bus, parts } = stage();
    await bus.producer().send(TOPICS.events, [event]);
    const nba = partitionFor('nba', TOPIC_CONFIGS[TOPICS.rawTicks].partitions);
    const others = [...Array(TOPIC_CONFIGS[TOPICS.rawTicks].partitions).keys()].filter((p) => p !== nba);
    await spec.state?.restore?.(others, () => 0);
    expect(parts.normalizer.eventCount).toBe(0);
    await spec.state?.restore?.([nba], () => 0);
    expect(parts.normalizer.eventCount).toBe(1);
    spec.state?.revoke?.([nba]);
    expect(parts.leagues.normalizes('nba')).toBe(false);
    expect(parts.normalizer.eventCount).toBe(0);
    await bus.close();
  });
});
