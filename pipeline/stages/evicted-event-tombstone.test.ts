import { describe, expect, it } from 'vitest';
import { LEAGUES, TEAMS, TOPICS, TOPIC_CONFIGS } from '../../schemas/index.js';
import { batchOf, stageHarness } from '../../test/support/stage-context.js';
import { rawTick } from '../../test/support/raw-tick.js';
import { partitionFor } from '../bus/index.js';
import type { OutgoingRecord } from '../bus/index.js';
import { FuturesNormalizer } from '../futures/index.js';
import { Normalizer } from '../normalize/index.js';
import { SplitsProcessor } from '../splits/index.js';
import { LeagueOwnership } from './league-ownership.js';
import { normalizerStage } from './normalizer.js';

const T0 = Date.UTC(2026, 10, 22, 12);
const HOUR = 3600_000;

function stage() {
  const harness = stageHarness(T0);
  const parts = {
    normalizer: new Normalizer({ teams: TEAMS, leagues: LEAGUES }, { retainAfterStartMs: HOUR }),
    leagues: new LeagueOwnership(),
    splits: new SplitsProcessor(),
    futuresNormalizer: new FuturesNormalizer({ teams: TEAMS, leagues: LEAGUES }),
    counters: { splitsSnapshots: 0 },
  };
  return { ...harness, parts, spec: normalizerStage(harness.ctx, parts) };
}

describe('an event the normalizer evicts', () => {
  it('goes out as a tombstone on events, once, so the changelog readers forget it too', async () => {
    const { spec, sent, clock, parts } = stage();
    const listed = batchOf(TOPICS.rawTicks, 0, [rawTick(T0)], () => 'k');
    await spec.handle(listed.records, listed);
    const event = sent[0]?.records[0] as OutgoingRecord<typeof TOPICS.events>;
    expect(parts.normalizer.eventCount).toBe(1);

    // Two hours on (an hour past the retention), the eviction pass runs on the 10,000th raw tick.
    clock.set(T0 + 2 * HOUR);
    sent.length = 0;
    const later = Array.from({ length: 10_000 }, () => rawTick(T0, { bookEventId: 'p-2', homeTeam: 'Nobody' }));
    const batch = batchOf(TOPICS.rawTicks, 0, later, () => 'k');
    await spec.handle(batch.records, batch);
    expect(parts.normalizer.eventCount).toBe(0);
    expect(sent).toEqual([{ topic: TOPICS.events, records: [{ key: event.key, value: null }] }]);

    sent.length = 0;
    await spec.handle(batch.records, batch);
    expect(sent).toEqual([]);
  });

  it('stays forgotten when a restarted normalizer reads its tombstone back from the changelog', async () => {
    const first = stage();
    const listed = batchOf(TOPICS.rawTicks, 0, [rawTick(T0)], () => 'k');
    await first.spec.handle(listed.records, listed);
    const event = first.sent[0]?.records[0] as OutgoingRecord<typeof TOPICS.events>;

    const { spec, bus, parts } = stage();
    await bus.producer().send(TOPICS.events, [event, { key: event.key, value: null }]);
    await spec.state?.restore?.([partitionFor('nba', TOPIC_CONFIGS[TOPICS.rawTicks].partitions)], () => 0);
    expect(parts.normalizer.eventCount).toBe(0);
    await bus.close();
  });
});
