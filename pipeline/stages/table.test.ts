import { describe, expect, it } from 'vitest';
import { LEAGUES, TEAMS } from '../../schemas/index.js';
import { stageHarness } from '../../test/support/stage-context.js';
import { ClosingProcessor } from '../closing/index.js';
import { FuturesNormalizer, FuturesProcessor } from '../futures/index.js';
import { Normalizer } from '../normalize/index.js';
import { OpportunityProcessor } from '../opportunities/index.js';
import { PerPartition } from '../partition-state.js';
import { SnapshotProcessor } from '../snapshot/index.js';
import { SplitsProcessor } from '../splits/index.js';
import { LeagueOwnership } from './league-ownership.js';
import { LowestAccountRate } from './lowest-rate.js';
import { pipelineStages } from './table.js';

// The wiring itself: which group reads what, produces what, writes which tables, in which
// start order, with which batching and which kind of state. The topics, group ids and stage
// names are the pipeline's contract with Kafka (committed offsets) and with the lag metric.
describe('pipelineStages', () => {
  const { ctx, store } = stageHarness(0);
  const catalog = { teams: TEAMS, leagues: LEAGUES };
  const table = pipelineStages(
    ctx,
    {
      normalizer: new Normalizer(catalog),
      leagues: new LeagueOwnership(),
      splits: new SplitsProcessor(),
      futuresNormalizer: new FuturesNormalizer(catalog),
      futures: new FuturesProcessor({ referenceBooks: ['pinnacle'], fallbackReferenceBooks: [] }),
      snapshots: new PerPartition(() => new SnapshotProcessor()),
      opportunities: new PerPartition(() => new OpportunityProcessor()),
      closings: new PerPartition(() => new ClosingProcessor()),
      accountRates: new LowestAccountRate(),
      counters: { splitsSnapshots: 0 },
    },
    { store, retainAfterStartMs: 0 },
  );

  it('lists every stage in start order with its group, topics and tables', () => {
    expect(table.map((s) => [s.name, s.groupId, s.input, s.output, s.tables])).toEqual([
      ['normalizer', 'normalizer', 'odds.ticks.raw', ['events', 'odds.ticks', 'splits', 'futures'], []],
      ['futures', 'futures', 'futures', ['futures.markets'], ['futures_odds_latest', 'futures_ev']],
      ['sink:futures_odds_ticks', 'sink-futures-odds-ticks', 'futures', [], ['futures_odds_ticks']],
      ['normalizer:gamestate', 'normalizer-gamestate', 'gamestate.raw', ['events', 'gamestate'], []],
      ['snapshot', 'snapshot', ['odds.ticks', 'events'], ['odds.snapshot'], []],
      ['opportunities', 'opportunities', ['events', 'odds.snapshot'], ['opportunities'], []],
      ['closing', 'closing', ['odds.snapshot', 'events', 'opportunities', 'gamestate'], [], ['clv_entries', 'closing_odds', 'clv_grades']],
      ['sink:game_state', 'sink-game-state', 'gamestate', [], ['game_state']],
      ['sink:odds_ticks', 'sink-odds-ticks', 'odds.ticks', [], ['odds_ticks']],
      ['sink:odds_latest', 'sink-odds-latest', 'odds.snapshot', [], ['odds_latest']],
      ['sink:opportunities', 'sink-opportunities', 'opportunities', [], ['opportunities']],
      ['sink:splits', 'sink-splits', 'splits', [], ['splits_history', 'splits_latest']],
      ['sink:events', 'sink-events', 'events', [], ['events']],
    ]);
  });

  it('batches only the sinks: the big topics by the configured batch, the others from 1000 records', () => {
    const configured = { minBatchSize: 20_000, maxWaitMs: 1000, maxBatchSize: 100_000 };
    const small = { ...configured, minBatchSize: 1000 };
    expect(Object.fromEntries(table.map((s) => [s.name, s.batching]))).toEqual({
      normalizer: undefined,
      futures: undefined,
      'sink:futures_odds_ticks': small,
      'normalizer:gamestate': undefined,
      snapshot: undefined,
      opportunities: undefined,
      closing: undefined,
      'sink:game_state': small,
      'sink:odds_ticks': configured,
      'sink:odds_latest': configured,
      'sink:opportunities': small,
      'sink:splits': small,
      'sink:events': small,
    });
  });

  it('restores the four stateful stages at each assignment, loads futures once, and keeps nothing in the sinks', () => {
    const kinds = (s: (typeof table)[number]): string[] =>
      Object.entries(s.state ?? {})
        .filter(([, f]) => f !== undefined)
        .map(([k]) => k)
        .sort();
    expect(Object.fromEntries(table.filter((s) => s.state).map((s) => [s.name, kinds(s)]))).toEqual({
      normalizer: ['restore', 'revoke'],
      futures: ['load'],
      'normalizer:gamestate': ['assign', 'revoke'],
      snapshot: ['restore', 'revoke'],
      opportunities: ['restore', 'revoke'],
      closing: ['restore', 'revoke'],
    });
  });
});
