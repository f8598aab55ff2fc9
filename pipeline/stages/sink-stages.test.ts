import { describe, expect, it } from 'vitest';
import { TOPICS } from '../../schemas/index.js';
import type { CanonicalEvent, GameState, TopicName } from '../../schemas/index.js';
import { batchOf, simulatedTopics, stageHarness } from '../../test/support/stage-context.js';
import type { BusRecord, RecordBatch } from '../bus/index.js';
import { gameStateRow } from '../closing/index.js';
import { futuresTickRows } from '../futures/index.js';
import { eventRow, latestRow, opportunityRow, tickRow } from '../sinks/index.js';
import { splitsRows } from '../splits/index.js';
import {
  eventsSinkStage,
  futuresTicksSinkStage,
  gameStateSinkStage,
  oddsLatestSinkStage,
  oddsTicksSinkStage,
  opportunitiesSinkStage,
  splitsSinkStage,
} from './sink-stages.js';
import type { StageContext, StageSpec } from './stage.js';

const T0 = Date.UTC(2026, 10, 22, 12);
const topics = simulatedTopics(T0);

/** Runs one batch through a sink stage (a tombstone appended) and returns its inserts. */
async function inserted<T extends TopicName>(make: (ctx: StageContext) => StageSpec<T>, batch: RecordBatch<T>) {
  const { ctx, inserts, sent } = stageHarness(T0);
  const last = batch.records.at(-1) as BusRecord<T>;
  const records = [...batch.records, { ...last, offset: last.offset + 1, value: null }];
  await make(ctx).handle(records, { ...batch, records });
  expect(sent).toEqual([]);
  return inserts;
}

describe('the sink stages', () => {
  it('odds_ticks: every tick, stamped with the time of the batch', async () => {
    const batch = batchOf(TOPICS.ticks, 0, topics.ticks, (t) => t.eventId);
    expect(await inserted(oddsTicksSinkStage, batch)).toEqual([{ table: 'odds_ticks', rows: topics.ticks.map((t) => tickRow(t, T0)) }]);
  });

  it('odds_latest: every change, versioned by its offset + 1', async () => {
    const batch = batchOf(TOPICS.snapshot, 2, topics.changes, (c) => c.key, 40);
    expect(await inserted(oddsLatestSinkStage, batch)).toEqual([
      { table: 'odds_latest', rows: topics.changes.map((c, i) => latestRow(c, 40 + i + 1)) },
    ]);
  });

  it('opportunities: every version, versioned by its offset + 1', async () => {
    expect(topics.opportunities.length).toBeGreaterThan(0);
    const batch = batchOf(TOPICS.opportunities, 1, topics.opportunities, (o) => o.id, 7);
    expect(await inserted(opportunitiesSinkStage, batch)).toEqual([
      { table: 'opportunities', rows: topics.opportunities.map((o, i) => opportunityRow(o, 7 + i + 1)) },
    ]);
  });

  it('events', async () => {
    const batch = batchOf(TOPICS.events, 0, topics.events, (e) => e.id);
    expect(await inserted(eventsSinkStage, batch)).toEqual([{ table: 'events', rows: topics.events.map(eventRow) }]);
  });

  it('splits: the same rows into splits_history, then splits_latest', async () => {
    const batch = batchOf(TOPICS.splits, 0, topics.splits, (s) => s.key);
    const rows = topics.splits.flatMap((s) => splitsRows(s, T0));
    expect(rows.length).toBeGreaterThan(0);
    expect(await inserted(splitsSinkStage, batch)).toEqual([
      { table: 'splits_history', rows },
      { table: 'splits_latest', rows },
    ]);
  });

  it('futures_odds_ticks: every outcome of every quote', async () => {
    const batch = batchOf(TOPICS.futures, 0, topics.futures, (q) => q.key);
    expect(await inserted(futuresTicksSinkStage, batch)).toEqual([
      { table: 'futures_odds_ticks', rows: topics.futures.flatMap(futuresTickRows) },
    ]);
  });

  it('game_state', async () => {
    const event = topics.events[0] as CanonicalEvent;
    const state: GameState = {
      eventId: event.id,
      sport: event.sport,
      league: event.league,
      homeTeamId: event.homeTeamId,
      awayTeamId: event.awayTeamId,
      primaryBook: 'pinnacle',
      bookCount: 1,
      updatedAt: T0,
      status: 'live',
      homeScore: 3,
      awayScore: 1,
      period: 'Q1',
      clock: '5:00',
      possession: null,
      server: null,
      lastPlay: null,
      extras: {},
    };
    const batch = batchOf(TOPICS.gameState, 0, [state], (s) => s.eventId);
    expect(await inserted(gameStateSinkStage, batch)).toEqual([{ table: 'game_state', rows: [gameStateRow(state)] }]);
  });
});
