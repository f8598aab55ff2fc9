import type { Logger } from 'pino';
import { TOPICS } from '../../schemas/index.js';
import type { Bus } from '../../pipeline/bus/index.js';
import { startStage } from '../../pipeline/runner.js';
import type { Stage, StageFailureHandler } from '../../pipeline/runner.js';
import { VIEW_BATCH_RECORDS } from './changelog-views.js';
import type { FuturesBoard } from './futures-board.js';

/** Keeps a replica's futures board from the two futures changelogs (same rules as the other views). */
export function startFuturesViews(
  bus: Bus,
  futures: FuturesBoard,
  replicaId: string,
  logger: Logger,
  onFailure?: StageFailureHandler,
): Stage[] {
  return [
    startStage(
      bus,
      'view:futures',
      { groupId: `api-${replicaId}-futures`, topic: TOPICS.futures, fromBeginning: true, commit: false, maxBatchSize: VIEW_BATCH_RECORDS },
      async (records) => {
        for (const r of records) futures.applyQuote(r.value, r.key);
      },
      logger,
      onFailure,
    ),
    startStage(
      bus,
      'view:futures-markets',
      {
        groupId: `api-${replicaId}-futures-markets`,
        topic: TOPICS.futuresMarkets,
        fromBeginning: true,
        commit: false,
        maxBatchSize: VIEW_BATCH_RECORDS,
      },
      async (records) => {
        for (const r of records) futures.applyMarket(r.value, r.key);
      },
      logger,
      onFailure,
    ),
  ];
}
