import type { Logger } from 'pino';
import type { TopicName } from '../schemas/index.js';
import type { Bus, BusRecord, Consumer, ConsumerOptions, RecordBatch } from './bus/index.js';
import type { StageSpec } from './stages/index.js';

export interface Stage {
  readonly name: string;
  /** The stage's consumer now (a stage started again after a lost connection has a new one). */
  readonly consumer: Consumer<TopicName>;
  stop(): Promise<void>;
}

/** A failed stage starts again with a new consumer after `afterMs` (from the group's last commit, as after a restart). */
export interface StageRestart {
  afterMs: number;
}

/**
 * Told when a stage's consumer failed, with the stage's name: when the stage starts again, or
 * nothing when it stays down (the policy then takes the process down). The runtime's policy is
 * `runtime/failure-policy.ts`.
 */
export type StageFailureHandler = (error: unknown, stage: string) => StageRestart | null | void;

/**
 * Drives one consumer: each batch goes to `handle`, and the offsets are committed only once it
 * resolved (outputs produced, sink acknowledged). A handler that throws (a bug, or a sink that
 * exhausted its retries) stops the stage uncommitted instead of skipping data; `onFailure`
 * decides whether the stage starts again (a lost connection) or the runtime takes the process
 * down so a supervisor restarts it from the last commit. A stage over several co-partitioned
 * topics gets one batch per topic-partition (`batch.topic`).
 */
export function startStage<T extends TopicName>(
  bus: Bus,
  name: string,
  options: ConsumerOptions<T>,
  handle: (records: readonly BusRecord<T>[], batch: RecordBatch<T>) => Promise<void>,
  logger: Logger,
  onFailure?: StageFailureHandler,
): Stage {
  let stopped = false;
  let restart: NodeJS.Timeout | null = null;
  // A stage started again reads from its group's last commit (from the beginning, for a group
  // that never commits: an API replica's views); what this process already handled is not
  // handled twice. Handled means its outputs were produced and its rows acknowledged by the
  // store, so skipping it is exact; commits lost with the failed consumer are owed no longer
  // once the new one commits past them. Without this, a restarted normalizer produced its last
  // uncommitted ticks again and odds_ticks stored them twice.
  const handled = new Map<string, number>();
  const slotOf = (topic: TopicName, partition: number): string => `${topic}:${partition}`;
  const handleOnce = async (batch: RecordBatch<T>): Promise<void> => {
    const slot = slotOf(batch.topic, batch.partition);
    const next = handled.get(slot) ?? 0;
    const last = batch.records.at(-1);
    if (!last || last.offset < next) return;
    const first = batch.records[0];
    const fresh = first !== undefined && first.offset >= next ? batch.records : batch.records.filter((r) => r.offset >= next);
    await handle(fresh, fresh === batch.records ? batch : { ...batch, records: fresh });
    handled.set(slot, last.offset + 1);
  };
  // A stage that rebuilds its partitions' state from its inputs up to where it resumes them must
  // be told where that is: past what it already handled, which it will not be given again, and
  // not the group's commit, or the records in between are in neither its state nor its input.
  const { onAssign } = options;
  const consumerOptions: ConsumerOptions<T> = onAssign
    ? {
        ...options,
        onAssign: (partitions, committed) =>
          onAssign(partitions, (topic, partition) => Math.max(committed(topic, partition), handled.get(slotOf(topic, partition)) ?? 0)),
      }
    : options;
  const begin = (): Consumer<T> => {
    const consumer = bus.consumer(consumerOptions);
    consumer.run(handleOnce);
    consumer.done.catch((error: unknown) => {
      if (stopped) return;
      const restartIn = onFailure?.(error, name);
      // (A handler typed to return nothing may still return a value: only a StageRestart restarts.)
      if (typeof restartIn !== 'object' || restartIn === null) {
        logger.fatal({ err: error, stage: name }, 'pipeline stage failed');
        return;
      }
      restart = setTimeout(() => {
        restart = null;
        // The failed consumer finishes its batches in hand and leaves the group first.
        void consumer
          .stop()
          .catch(() => undefined)
          .then(() => {
            if (!stopped) current = begin();
          });
      }, restartIn.afterMs);
    });
    return consumer;
  };
  let current = begin();
  return {
    name,
    get consumer() {
      return current as unknown as Consumer<TopicName>;
    },
    stop: () => {
      stopped = true;
      if (restart) clearTimeout(restart);
      return current.stop();
    },
  };
}

export interface RunningStages {
  /**
   * Resolves once every stage's `load` finished, the stages started, and every stage with a
   * `restore` went through its first assignment.
   */
  readonly ready: Promise<void>;
  /** The stages started, in table order (none until the loads finished). */
  stages(): readonly Stage[];
  /** Records not yet through every stage, restores in flight included (1 before the stages start). */
  lag(): number;
  /**
   * Stops every stage at once, once the loads finished and the stages started (not once `ready`:
   * a first restore waiting for a store that does not answer is ended by the stop itself).
   * `stopping` is called once every stage was told to stop, before their batches in hand are
   * waited for: a batch or a restore that fails from then on fails as the stop's, not as a stage
   * failure (the pipeline's sinks give up waiting for the store there).
   */
  stop(stopping?: () => void): Promise<void>;
}

/**
 * Runs a stage table: loads what the stages load, then starts them in table order. State before
 * input: a stage with a `restore` rebuilds the state of the partitions it is assigned (at start
 * and at every rebalance) before their records reach it, so a restart, a second instance or a
 * takeover continues from what clients already saw, not from empty.
 */
export function runStageTable(bus: Bus, table: readonly StageSpec[], logger: Logger, onFailure?: StageFailureHandler): RunningStages {
  let stages: Stage[] = [];
  /** Restores in flight (their number is counted in lag()). */
  const restores = new Set<Promise<void>>();
  const firstAssignment = new Map(table.filter((spec) => spec.state?.restore).map((spec) => [spec.name, deferred()]));
  /** Runs a stage's restore, counted in lag() meanwhile; the stage's first one makes it ready. */
  const restoring = (stage: string, restore: () => Promise<void>): Promise<void> => {
    const running = (async () => {
      await restore();
      firstAssignment.get(stage)?.resolve();
    })();
    restores.add(running);
    return running.finally(() => restores.delete(running));
  };
  const consumerOptions = (spec: StageSpec): ConsumerOptions<TopicName> => {
    const { restore, assign, revoke } = spec.state ?? {};
    return {
      groupId: spec.groupId,
      topic: spec.input,
      // Every stage starts a new group at the beginning of its input's retention.
      fromBeginning: true,
      ...spec.batching,
      ...(restore ? { onAssign: (partitions, committed) => restoring(spec.name, () => restore(partitions, committed)) } : {}),
      ...(assign ? { onAssign: (partitions) => assign(partitions) } : {}),
      ...(revoke ? { onRevoke: revoke } : {}),
    };
  };
  const started = (async () => {
    const loads = table.flatMap((spec) => (spec.state?.load ? [spec.state.load] : []));
    for (const load of loads) await load();
    stages = table.map((spec) =>
      startStage(bus, spec.name, consumerOptions(spec), (records, batch) => spec.handle(records, batch), logger, onFailure),
    );
  })();
  const ready = (async () => {
    await started;
    await Promise.all([...firstAssignment.values()].map((d) => d.promise));
  })();
  return {
    ready,
    stages: () => stages,
    lag: () => restores.size + (stages.length === 0 ? 1 : 0) + stages.reduce((total, s) => total + s.consumer.lag(), 0),
    stop: async (stopping) => {
      await started.catch(() => undefined);
      const stopped = stages.map((s) => s.stop());
      stopping?.();
      await Promise.all(stopped);
      // A consumer may leave while a restore of its still runs (Kafka: none of its batches was in
      // hand): the stop returns once that restore ended too, released by `stopping` if it waited.
      await Promise.allSettled([...restores]);
    },
  };
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
