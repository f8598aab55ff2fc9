// What went wrong (issue 36 §3): a closing stage given partitions while the store did not answer
// (a rebalance, or a start, during an outage) read the closes and entries it restores from, got
// the store's refusal, and its stage failed: the failure policy then stopped the process, while
// the sinks of the same process waited for the store as designed. The restore now reads through
// the sinks of those tables (TableSink.read): it waits as their batches do, with the same backoff
// and log lines, and the pipeline's stop ends the wait.
import { pino } from 'pino';
import type { Logger } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { LEAGUES, TEAMS } from '../../schemas/index.js';
import { MemoryBus } from '../bus/index.js';
import { ManualClock } from '../clock.js';
import { startPipeline } from '../pipeline.js';
import { StoreError } from '../store/index.js';
import type { OlapStore } from '../store/index.js';

/** A store that answers every query with no rows, and refuses each call as an unreachable server while `down`. */
function outageStore(): { store: OlapStore; down: { value: boolean }; refused: string[]; asked: string[] } {
  const down = { value: true };
  const refused: string[] = [];
  const asked: string[] = [];
  const call = async <R>(what: string, result: R): Promise<R> => {
    if (down.value) {
      refused.push(what);
      throw new StoreError('connect ECONNREFUSED 127.0.0.1:8123', true, { unreachable: true });
    }
    asked.push(what);
    return result;
  };
  const store: OlapStore = {
    kind: 'clickhouse',
    exec: (sql) => call(sql, undefined),
    insert: (table) => call(`INSERT INTO ${table}`, undefined),
    query: (sql) => call(/FROM (\w+)/.exec(sql)?.[1] ?? sql, []),
    close: async () => undefined,
  };
  return { store, down, refused, asked };
}

/** The pipeline's warn lines, as objects. */
function capturedLogger(): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, lines };
}

async function until(done: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 10_000;
  while (!done()) {
    if (Date.now() > end) throw new Error(`never: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const buses: MemoryBus[] = [];
afterEach(async () => {
  await Promise.all(buses.splice(0).map((b) => b.close()));
});

function pipelineOver(store: OlapStore): {
  pipeline: ReturnType<typeof startPipeline>;
  failures: string[];
  lines: Record<string, unknown>[];
} {
  const bus = new MemoryBus();
  buses.push(bus);
  const failures: string[] = [];
  const { logger, lines } = capturedLogger();
  const pipeline = startPipeline({
    bus,
    store,
    clock: new ManualClock(Date.UTC(2026, 10, 30, 4)),
    logger,
    catalog: { teams: TEAMS, leagues: LEAGUES },
    sinkMaxWaitMs: 0,
    onFailure: (e, stage) => {
      failures.push(`${stage}: ${e instanceof Error ? e.message : String(e)}`);
    },
  });
  return { pipeline, failures, lines };
}

describe("closing's restore while the store does not answer", () => {
  it('waits for the store, without failing its stage, and restores once it answers', async () => {
    const { store, down, refused, asked } = outageStore();
    const { pipeline, failures, lines } = pipelineOver(store);
    let ready = false;
    void pipeline.ready.then(() => (ready = true));

    // The first wait is 200 ms, the next 400 ms: two refusals and the restore is still waiting.
    await until(() => refused.length >= 2, 'two refused reads');
    expect(refused.slice(0, 2)).toEqual(['closing_odds', 'closing_odds']);
    expect(ready).toBe(false);
    expect(failures).toEqual([]);

    down.value = false;
    await until(() => ready, 'the pipeline ready');
    expect(asked.slice(0, 2)).toEqual(['closing_odds', 'clv_entries']);
    expect(failures).toEqual([]);
    expect(lines.map((l) => [l['msg'], l['table']])).toEqual([
      ['the store does not answer: the batches for this table wait in the log and are tried again until it does', 'closing_odds'],
      ['the store answers again', 'closing_odds'],
    ]);
    expect(lines[1]?.['attempts']).toBe(refused.length);
    await pipeline.stop();
  }, 20_000);

  it("is ended by the pipeline's stop, which fails no stage", async () => {
    const { store, refused } = outageStore();
    const { pipeline, failures } = pipelineOver(store);
    await until(() => refused.length >= 1, 'a refused read');
    await pipeline.stop();
    expect(failures).toEqual([]);
  }, 20_000);
});
