import type { Logger } from 'pino';
import { TOPICS, upgradeOddsChange } from '../../schemas/index.js';
import type { TopicName } from '../../schemas/index.js';
import type { Bus } from '../../pipeline/bus/index.js';
import { startStage } from '../../pipeline/runner.js';
import type { Stage, StageFailureHandler } from '../../pipeline/runner.js';
import type { LiveBoard } from './board.js';
import type { GameStateBoard } from './gamestate-board.js';
import type { OpportunityBoard } from './opportunity-board.js';
import type { SplitsBoard } from './splits-board.js';

/**
 * Records a view applies in one go at most. A batch runs to its end on the API's event loop (the
 * bus's round budget is checked between batches), and the live board's listeners cost tens of
 * microseconds a change: a view that fell 5,000 records behind (the bus's default batch; after a
 * GC pause, or as the copy of a worker's log arrives in messages of 1,000) held the loop for
 * 100-500 ms in one piece (docs/performance.md, "The API thread's stalls with the pipeline in a
 * worker").
 */
export const VIEW_BATCH_RECORDS = 500;

/**
 * Keeps a replica's board current from the compacted changelogs. Each replica is its own
 * consumer group (a stable id per replica) reading from the beginning at every start and never
 * committing: compaction makes that the current state, not the whole history. A view that
 * stops leaves the replica serving a frozen board, so its failure goes to `onFailure` (the
 * runtime's policy: started again after a lost connection, else the process stops).
 */
export function startChangelogViews(
  bus: Bus,
  board: LiveBoard,
  replicaId: string,
  logger: Logger,
  opportunities?: OpportunityBoard,
  splits?: SplitsBoard,
  gameStates?: GameStateBoard,
  onFailure?: StageFailureHandler,
): Stage[] {
  // Every view reads its changelog whole at each start as its own group and never commits.
  const viewConsumer = <T extends TopicName>(name: string, topic: T) =>
    ({ groupId: `api-${replicaId}-${name}`, topic, fromBeginning: true, commit: false, maxBatchSize: VIEW_BATCH_RECORDS }) as const;
  const stages = [
    startStage(
      bus,
      'view:events',
      viewConsumer('events', TOPICS.events),
      async (records) => {
        for (const r of records) {
          if (r.value) board.applyEvent(r.value);
          else board.forgetEvent(r.key);
        }
      },
      logger,
      onFailure,
    ),
    startStage(
      bus,
      'view:odds',
      viewConsumer('odds', TOPICS.snapshot),
      async (records) => {
        // Records from before suspended rows were kept lack their flags: they are active rows.
        for (const r of records) if (r.value) board.applyChange(upgradeOddsChange(r.value));
      },
      logger,
      onFailure,
    ),
  ];
  if (opportunities) {
    stages.push(
      startStage(
        bus,
        'view:opportunities',
        viewConsumer('opportunities', TOPICS.opportunities),
        async (records) => {
          for (const r of records) opportunities.apply(r.key, r.value);
        },
        logger,
        onFailure,
      ),
    );
  }
  if (splits) {
    stages.push(
      startStage(
        bus,
        'view:splits',
        viewConsumer('splits', TOPICS.splits),
        async (records) => {
          for (const r of records) splits.apply(r.key, r.value);
        },
        logger,
        onFailure,
      ),
    );
  }
  if (gameStates) {
    stages.push(
      startStage(
        bus,
        'view:gamestate',
        viewConsumer('gamestate', TOPICS.gameState),
        async (records) => {
          for (const r of records) gameStates.apply(r.value, r.key);
        },
        logger,
        onFailure,
      ),
    );
  }
  return stages;
}
