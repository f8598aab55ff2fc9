import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { LEAGUES, TEAMS, TOPICS } from '../schemas/index.js';
import type { RawTick } from '../schemas/index.js';
import { MemoryBus, NO_BATCH } from '../pipeline/bus/index.js';
import { ManualClock } from '../pipeline/clock.js';
import { MarketSimulator } from '../pipeline/feeds/simulator/index.js';
import { Normalizer } from '../pipeline/normalize/index.js';
import { OpportunityProcessor } from '../pipeline/opportunities/index.js';
import type { OpportunityInput } from '../pipeline/opportunities/index.js';
import { SnapshotProcessor } from '../pipeline/snapshot/index.js';
import { loadConfig } from '../runtime/config.js';
import { openProcessParts, startConfiguredPipeline } from '../runtime/process-parts.js';
import type { BenchFigure } from './report.js';
import { spread, spreadLine } from './samples.js';

const BATCH = 2000;

/** A fixed tick sequence: the simulator's opening board, then changes, from a fixed seed. */
export function recordedTicks(count: number, seed = 7): { ticks: RawTick[]; start: number } {
  const start = Date.UTC(2026, 10, 21, 12, 0);
  const clock = new ManualClock(start);
  const sim = new MarketSimulator({ seed, clock });
  const ticks = sim.snapshot();
  let now = start;
  while (ticks.length < count) {
    now += 100;
    clock.set(now);
    for (const t of sim.step(now, 5000)) ticks.push(t);
  }
  return { ticks: ticks.slice(0, count), start };
}

async function pumpUntilDrained(send: (batch: RawTick[]) => Promise<void>, ticks: RawTick[], lag: () => number): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < ticks.length; i += BATCH) await send(ticks.slice(i, i + BATCH));
  while (lag() > 0) await new Promise((r) => setTimeout(r, 1));
  return performance.now() - t0;
}

async function rawBusRun(ticks: RawTick[]): Promise<number> {
  const rawBus = new MemoryBus();
  const sink = rawBus.consumer({ groupId: 'noop', topic: TOPICS.rawTicks, fromBeginning: true, maxBatchSize: 5000 });
  sink.run(async () => {});
  const rawProducer = rawBus.producer();
  const ms = await pumpUntilDrained(
    (b) =>
      rawProducer.send(
        TOPICS.rawTicks,
        b.map((t) => ({ key: busKey(t), partitionKey: t.league, value: t })),
        NO_BATCH,
      ),
    ticks,
    () => sink.lag(),
  );
  await sink.stop();
  await rawBus.close();
  return ms;
}

const busKey = (t: RawTick): string => `${t.book}:${t.bookEventId}`;

export async function pipelineRun(ticks: RawTick[], start: number): Promise<{ ms: number; unmatched: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'odds-bench-'));
  const config = loadConfig({ DATA_DIR: dir, FEED: 'none' });
  const logger = pino({ level: 'silent' });
  const parts = await openProcessParts(config, logger, { runsFeed: false, clock: new ManualClock(start) });
  const { bus, opened } = parts;
  const pipeline = startConfiguredPipeline(config, parts, logger, { tierScopes: false });
  await pipeline.ready;
  const producer = bus.producer();
  const ms = await pumpUntilDrained(
    (b) =>
      producer.send(
        TOPICS.rawTicks,
        b.map((t) => ({ key: busKey(t), partitionKey: t.league, value: t })),
        NO_BATCH,
      ),
    ticks,
    () => pipeline.lag(),
  );
  const stats = pipeline.stats();
  await pipeline.stop();
  await bus.close();
  await opened.closeCleanly();
  rmSync(dir, { recursive: true, force: true });
  return { ms, unmatched: Object.values(stats.normalizer.unmatched).reduce((a, b) => a + (b ?? 0), 0) };
}

/**
 * The pipeline's processors alone, in process, in batches of BATCH raw ticks: normalizer,
 * snapshot, opportunity engines (events first, as the stages order them). No bus, no sinks:
 * beside the full pipeline it shows what the processing costs and what the rest does.
 */
function processorsRun(ticks: readonly RawTick[], start: number): number {
  const normalizer = new Normalizer({ teams: TEAMS, leagues: LEAGUES });
  const snapshot = new SnapshotProcessor();
  const opportunities = new OpportunityProcessor();
  const t0 = performance.now();
  for (let i = 0; i < ticks.length; i += BATCH) {
    const now = start + i;
    const events: OpportunityInput[] = [];
    const odds: OpportunityInput[] = [];
    const end = Math.min(ticks.length, i + BATCH);
    for (let j = i; j < end; j++) {
      const result = normalizer.handle(ticks[j] as RawTick, now);
      for (const event of result.events) events.push({ type: 'event', event });
      if (!result.tick) continue;
      const change = snapshot.handle(result.tick, now);
      if (change) odds.push({ type: 'odds', change });
    }
    opportunities.handleBatch(events, now);
    opportunities.handleBatch(odds, now);
  }
  return performance.now() - t0;
}

const SAMPLES = 3;

/**
 * Pipeline throughput (normalizer, snapshot, opportunity engines, closing lines, ClickHouse sinks
 * on chDB) against the raw bus carrying the same ticks to a consumer that does nothing: the ratio
 * is what processing costs. Beside it the processors alone (no bus, no sinks). Median of 3
 * interleaved samples each; the spread and the load average print under the figures.
 */
export async function benchPipeline(tickCount = 200_000): Promise<BenchFigure[]> {
  const { ticks, start } = recordedTicks(tickCount);
  processorsRun(ticks.slice(0, 20_000), start); // warm-up: JIT, not measured
  const raw: number[] = [];
  const full: number[] = [];
  const processors: number[] = [];
  let unmatched = 0;
  const rate = (ms: number): number => tickCount / (ms / 1000);
  for (let i = 0; i < SAMPLES; i++) {
    raw.push(rate(await rawBusRun(ticks)));
    processors.push(rate(processorsRun(ticks, start)));
    const run = await pipelineRun(ticks, start);
    full.push(rate(run.ms));
    unmatched = run.unmatched;
  }
  if (unmatched > 0) process.stdout.write(`  note: ${unmatched} of ${tickCount} ticks unmatched by the normalizer\n`);
  const rawSpread = spread(raw);
  process.stdout.write(spreadLine('pipeline, ticks/s', spread(full), rawSpread));
  process.stdout.write(spreadLine('processors only, ticks/s', spread(processors), rawSpread));
  const baseline = { name: 'raw bus, no-op consumer', value: rawSpread.median };
  return [
    {
      name: `pipeline ticks/s (${tickCount.toLocaleString('en-US')} ticks, chDB sinks)`,
      value: spread(full).median,
      unit: 'ticks/s',
      baseline,
    },
    { name: 'processors only (normalizer+snapshot+engines)', value: spread(processors).median, unit: 'ticks/s', baseline },
  ];
}
