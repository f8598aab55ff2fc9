import { TOPICS, foundBelowBoardRate } from '../../schemas/index.js';
import type { TopicName } from '../../schemas/index.js';
import type { BusRecord, PartitionHold } from '../bus/index.js';
import { gameStateRow } from '../closing/index.js';
import { futuresTickRows } from '../futures/index.js';
import { eventRow, latestRow, opportunityRow, tickRow } from '../sinks/index.js';
import { splitsRows } from '../splits/index.js';
import type { SinkTable } from './table-sinks.js';
import type { StageContext, StageSpec } from './stage.js';

/**
 * The stages that only copy a topic into tables, as data: each is its own consumer group, so a
 * slow insert holds back no processor. Topics of a few thousand records a minute insert from
 * 1000 records; the big ones (ticks, the changelog) wait for the configured batch.
 */
interface SinkStage<T extends TopicName> {
  name: string;
  groupId: string;
  topic: T;
  tables: readonly SinkTable[];
  /** Overrides the configured batch's minimum. */
  minBatchSize?: number;
  /** `hold`: the batch's, which every table write names. */
  write: (ctx: StageContext, records: readonly BusRecord<T>[], hold: PartitionHold) => Promise<void>;
}

const SMALL_TOPIC_BATCH = 1000;

function sinkStage<T extends TopicName>(ctx: StageContext, sink: SinkStage<T>): StageSpec<T> {
  return {
    name: sink.name,
    groupId: sink.groupId,
    input: sink.topic,
    output: [],
    tables: sink.tables,
    batching: sink.minBatchSize === undefined ? ctx.sinkBatching : { ...ctx.sinkBatching, minBatchSize: sink.minBatchSize },
    handle: (records, batch) => sink.write(ctx, records, batch.hold),
  };
}

export const futuresTicksSinkStage = (ctx: StageContext): StageSpec<typeof TOPICS.futures> =>
  sinkStage(ctx, {
    name: 'sink:futures_odds_ticks',
    groupId: 'sink-futures-odds-ticks',
    topic: TOPICS.futures,
    tables: ['futures_odds_ticks'],
    minBatchSize: SMALL_TOPIC_BATCH,
    write: ({ sinks }, records, hold) =>
      sinks.futures_odds_ticks.write(
        records.flatMap((r) => (r.value ? futuresTickRows(r.value) : [])),
        hold,
      ),
  });

export const gameStateSinkStage = (ctx: StageContext): StageSpec<typeof TOPICS.gameState> =>
  sinkStage(ctx, {
    name: 'sink:game_state',
    groupId: 'sink-game-state',
    topic: TOPICS.gameState,
    tables: ['game_state'],
    minBatchSize: SMALL_TOPIC_BATCH,
    write: ({ sinks }, records, hold) => sinks.game_state.writeRecords(records, (r) => (r.value ? gameStateRow(r.value) : null), hold),
  });

export const oddsTicksSinkStage = (ctx: StageContext): StageSpec<typeof TOPICS.ticks> =>
  sinkStage(ctx, {
    name: 'sink:odds_ticks',
    groupId: 'sink-odds-ticks',
    topic: TOPICS.ticks,
    tables: ['odds_ticks'],
    write: ({ sinks, clock }, records, hold) => {
      const now = clock.now();
      return sinks.odds_ticks.writeRecords(records, (r) => (r.value ? tickRow(r.value, now) : null), hold);
    },
  });

/** The latest odds, versioned by the changelog's offsets. */
export const oddsLatestSinkStage = (ctx: StageContext): StageSpec<typeof TOPICS.snapshot> =>
  sinkStage(ctx, {
    name: 'sink:odds_latest',
    groupId: 'sink-odds-latest',
    topic: TOPICS.snapshot,
    tables: ['odds_latest'],
    write: ({ sinks }, records, hold) =>
      sinks.odds_latest.writeRecords(records, (r) => (r.value ? latestRow(r.value, r.offset + 1) : null), hold),
  });

export const opportunitiesSinkStage = (ctx: StageContext): StageSpec<typeof TOPICS.opportunities> =>
  sinkStage(ctx, {
    name: 'sink:opportunities',
    groupId: 'sink-opportunities',
    topic: TOPICS.opportunities,
    tables: ['opportunities'],
    minBatchSize: SMALL_TOPIC_BATCH,
    // The table keeps what callers at the board's rates are served: not what was found only below them.
    write: ({ sinks }, records, hold) =>
      sinks.opportunities.writeRecords(
        records,
        (r) => (r.value && !foundBelowBoardRate(r.value) ? opportunityRow(r.value, r.offset + 1) : null),
        hold,
      ),
  });

/** One consumer for both splits tables: the same rows, a few thousand every 5 minutes. */
export const splitsSinkStage = (ctx: StageContext): StageSpec<typeof TOPICS.splits> =>
  sinkStage(ctx, {
    name: 'sink:splits',
    groupId: 'sink-splits',
    topic: TOPICS.splits,
    tables: ['splits_history', 'splits_latest'],
    minBatchSize: SMALL_TOPIC_BATCH,
    write: async ({ sinks, clock }, records, hold) => {
      const rows = records.flatMap((r) => (r.value ? splitsRows(r.value, clock.now()) : []));
      await sinks.splits_history.write(rows, hold);
      await sinks.splits_latest.write(rows, hold);
    },
  });

export const eventsSinkStage = (ctx: StageContext): StageSpec<typeof TOPICS.events> =>
  sinkStage(ctx, {
    name: 'sink:events',
    groupId: 'sink-events',
    topic: TOPICS.events,
    tables: ['events'],
    minBatchSize: SMALL_TOPIC_BATCH,
    write: ({ sinks }, records, hold) => sinks.events.writeRecords(records, (r) => (r.value ? eventRow(r.value) : null), hold),
  });
