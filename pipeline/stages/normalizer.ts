import { TOPICS, isRawFutures, isRawSplits } from '../../schemas/index.js';
import { NO_BATCH } from '../bus/index.js';
import type { OutgoingRecord } from '../bus/index.js';
import type { FuturesNormalizer } from '../futures/index.js';
import type { Normalizer } from '../normalize/index.js';
import type { SplitsProcessor } from '../splits/index.js';
import type { LeagueOwnership } from './league-ownership.js';
import type { StageContext, StageSpec } from './stage.js';

const UNMATCHED_LOG_EVERY = 1000;
/** Odds-only sources never say a game ended: live events are closed on a schedule, checked once a minute. */
const LIFECYCLE_SWEEP_MS = 60_000;

export interface NormalizerStageParts {
  normalizer: Normalizer;
  leagues: LeagueOwnership;
  /** Splits ride the feed's topic, so they are joined here, in feed order. */
  splits: SplitsProcessor;
  futuresNormalizer: FuturesNormalizer;
  /** Splits snapshots produced since start (`stats().splits.snapshots`). */
  counters: { splitsSnapshots: number };
}

/**
 * Raw ticks, splits and futures boards in; canonical ticks, events, joined splits and futures
 * quotes out. Event matching needs every event of the leagues this process normalizes, whoever
 * created them: rebuilt from the events changelog at every assignment (a survivor taking over a
 * league learns the events the lost process created); the events of leagues it no longer
 * normalizes are dropped at a revoke.
 */
export function normalizerStage(ctx: StageContext, parts: NormalizerStageParts): StageSpec<typeof TOPICS.rawTicks> {
  const { bus, producer, clock, logger } = ctx;
  const { normalizer, leagues, splits, futuresNormalizer, counters } = parts;
  let lastLifecycleSweep = Number.NEGATIVE_INFINITY;
  let unmatchedSeen = 0;
  return {
    name: 'normalizer',
    groupId: 'normalizer',
    input: TOPICS.rawTicks,
    output: [TOPICS.events, TOPICS.ticks, TOPICS.splits, TOPICS.futures],
    tables: [],
    state: {
      restore: async (partitions) => {
        leagues.gain('ticks', partitions);
        await bus.readToEnd(TOPICS.events, (records) => {
          for (const r of records) {
            if (r.value === null) normalizer.forget(r.key);
            else if (leagues.normalizes(r.value.league)) normalizer.restore(r.value);
          }
        });
      },
      revoke: (partitions) => {
        leagues.lose('ticks', partitions);
        normalizer.forgetLeagues(leagues.normalizes);
      },
    },
    handle: async (records, { hold }) => {
      const now = clock.now();
      const ticks: OutgoingRecord<typeof TOPICS.ticks>[] = [];
      const events: OutgoingRecord<typeof TOPICS.events>[] = [];
      const snapshots: OutgoingRecord<typeof TOPICS.splits>[] = [];
      const boards: OutgoingRecord<typeof TOPICS.futures>[] = [];
      for (const record of records) {
        if (record.value === null) continue;
        if (isRawFutures(record.value)) {
          const quote = futuresNormalizer.handle(record.value).quote;
          if (quote) boards.push({ key: quote.key, partitionKey: quote.futureId, value: quote });
          continue;
        }
        if (isRawSplits(record.value)) {
          const result = normalizer.handleSplits(record.value, now);
          for (const e of result.events) events.push({ key: e.id, value: e });
          if (result.splits && result.event) {
            const snapshot = splits.handle(result.splits, result.event, now);
            snapshots.push({ key: snapshot.key, partitionKey: snapshot.eventId, value: snapshot });
          }
          continue;
        }
        const result = normalizer.handle(record.value, now);
        if (result.tick) {
          ticks.push({ key: result.tick.eventId, value: result.tick });
          splits.observeTick(result.tick);
        }
        for (const e of result.events) events.push({ key: e.id, value: e });
        if (result.unmatched && unmatchedSeen++ % UNMATCHED_LOG_EVERY === 0) {
          const raw = record.value;
          logger.warn(
            {
              reason: result.unmatched,
              book: raw.book,
              league: raw.league,
              home: raw.homeTeam,
              away: raw.awayTeam,
              outcome: raw.outcome,
              unmatchedSoFar: unmatchedSeen,
            },
            'unmatched raw tick (logged once per 1000)',
          );
        }
      }
      // The process's own changes to events, whatever the batch: finished events closed, evicted ones forgotten.
      const lifecycle: OutgoingRecord<typeof TOPICS.events>[] = [];
      if (now - lastLifecycleSweep >= LIFECYCLE_SWEEP_MS) {
        lastLifecycleSweep = now;
        for (const e of normalizer.closeFinishedEvents(now)) lifecycle.push({ key: e.id, value: e });
      }
      for (const id of normalizer.takeForgotten()) lifecycle.push({ key: id, value: null });
      // Events first: a consumer of ticks may look the event up.
      try {
        if (events.length > 0) await producer.send(TOPICS.events, events, hold);
      } finally {
        // After the batch's events (a close of an event the batch changed is its later version),
        // and even when the batch is dropped because a rebalance took its partition meanwhile
        // (pipeline/bus/batch-ownership.ts): the new owner redoes the batch, not this sweep, and
        // the normalizer here already counts these events closed or forgotten: written as no batch's.
        if (lifecycle.length > 0) await producer.send(TOPICS.events, lifecycle, NO_BATCH);
      }
      if (ticks.length > 0) await producer.send(TOPICS.ticks, ticks, hold);
      if (snapshots.length > 0) {
        counters.splitsSnapshots += snapshots.length;
        await producer.send(TOPICS.splits, snapshots, hold);
      }
      if (boards.length > 0) await producer.send(TOPICS.futures, boards, hold);
    },
  };
}
