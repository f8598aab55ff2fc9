import { describe, expect, it } from 'vitest';
import { LEAGUES, TEAMS, TOPICS, TOPIC_CONFIGS } from '../../schemas/index.js';
import type { FeedRecord } from '../../schemas/index.js';
import { batchOf, stageHarness } from '../../test/support/stage-context.js';
import { rawTick } from '../../test/support/raw-tick.js';
import { partitionFor } from '../bus/index.js';
import type { BusRecord, OutgoingRecord } from '../bus/index.js';
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
