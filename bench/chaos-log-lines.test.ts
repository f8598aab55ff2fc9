// The chaos table's stage and sink lines are read from the processes' JSON logs (stageLine,
// storeWaitLine in chaos-processes.ts), untested until now: a field renamed in a log call would
// have left the table printing `undefined`s, or nothing, without a word. The lines here are the
// ones the code writes: made by the failure policy, the stage runner and a table sink themselves,
// through pino as the processes configure it (JSON, one object a line).
import { Writable } from 'node:stream';
import { pino } from 'pino';
import type { Logger } from 'pino';
import { describe, expect, it } from 'vitest';
import { MemoryBus, NO_BATCH } from '../pipeline/bus/index.js';
import { startStage } from '../pipeline/runner.js';
import { TableSink } from '../pipeline/sinks/index.js';
import { StoreError } from '../pipeline/store/index.js';
import type { OlapStore } from '../pipeline/store/index.js';
import { stageFailureHandler } from '../runtime/failure-policy.js';
import { RuntimeHealth } from '../runtime/health.js';
import { TOPICS } from '../schemas/index.js';
import { lostTheBrokers } from '../test/support/failing-consumer.js';
import { stageLine, storeWaitLine } from './chaos-processes.js';

/** A logger writing what a process writes (LOG_LEVEL warn, JSON), and the lines it wrote. */
function processLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(
        ...chunk
          .toString()
          .split('\n')
          .filter((l) => l !== ''),
      );
      done();
    },
  });
  return { logger: pino({ level: 'warn' }, out), lines };
}

const settled = (): Promise<void> => new Promise((r) => setTimeout(r, 50));

describe('the chaos table reading stage failures from the logs', () => {
  it('reads a stage started again after losing the brokers: the stage, what it did, why', async () => {
    const { logger, lines } = processLogger();
    stageFailureHandler(new RuntimeHealth(), logger)(lostTheBrokers(), 'closing');
    await settled();
    expect(lines).toHaveLength(1);
    expect(stageLine(lines[0] ?? '')).toBe('closing: pipeline stage lost the brokers: it starts again: write after end');
  });

  it("reads a stage that failed for good twice over: the policy's reason, and the runner's error", async () => {
    const { logger, lines } = processLogger();
    const bus = new MemoryBus();
    const rejected = new Error('Code: 62. DB::Exception: Syntax error: failed at position 1');
    const stage = startStage(
      bus,
      'sink:odds_ticks',
      { groupId: 'sink-odds-ticks', topic: TOPICS.splits, fromBeginning: true },
      async () => {
        throw new Error('insert into odds_ticks failed: Code: 62. DB::Exception: Syntax error', { cause: rejected });
      },
      logger,
      stageFailureHandler(new RuntimeHealth(), logger),
    );
    await bus.producer().send(TOPICS.splits, [{ key: 'k', value: {} as never }]);
    for (let i = 0; i < 100 && lines.length < 2; i++) await settled();
    await stage.stop();
    await bus.close();
    expect(lines.map(stageLine)).toEqual([
      'sink:odds_ticks: pipeline stage failed: the process stops: stage failed: insert into odds_ticks failed: Code: 62. DB::Exception: Syntax error',
      'sink:odds_ticks: pipeline stage failed: insert into odds_ticks failed: Code: 62. DB::Exception: Syntax error: Code: 62. DB::Exception: Syntax error: failed at position 1',
    ]);
  });

  it('reads a consumer that rejoins after its group refused it: the group, what it did, why', () => {
    // As runtime/bus.ts logs a KafkaBus rejoin (a SyncGroup refused as INVALID_REQUEST on the mock cluster).
    const line =
      '{"level":40,"time":1764470000000,"pid":4242,"hostname":"dev","groupId":"sink-odds-ticks","attempt":1,"reason":"This most likely occurs because of a request being malformed by the client library or the message was sent to an incompatible broker. See the broker logs for more details","msg":"Kafka consumer refused by its group: rejoining"}';
    expect(stageLine(line)).toBe(
      'sink-odds-ticks: Kafka consumer refused by its group: rejoining: This most likely occurs because of a request being malformed by the client library or the message was sent to an incompatible broker. See the broker logs for more details',
    );
  });
});

describe('the chaos table reading what the sinks said of the store', () => {
  it('reads when the store stopped answering a table and when it answered again, with how long', async () => {
    const { logger, lines } = processLogger();
    let refusals = 2;
    const store = {
      kind: 'clickhouse',
      insert: async () => {
        if (refusals-- > 0) throw new StoreError('connect ECONNREFUSED 127.0.0.1:8123', true, { unreachable: true });
      },
    } as unknown as OlapStore;
    const sink = new TableSink(store, 'odds_ticks', logger, { sleep: () => new Promise((r) => setImmediate(r)) });
    await sink.write([{ id: 1 }], NO_BATCH);
    await settled();
    expect(lines.map(storeWaitLine)).toEqual(['odds_ticks stopped answering', 'odds_ticks answered again after 0 s']);
  });
});
