import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { LEAGUES, TEAMS, TOPICS } from '../schemas/index.js';
import type { RawTick } from '../schemas/index.js';
import { MemoryBus } from '../pipeline/bus/index.js';
import { ManualClock } from '../pipeline/clock.js';
import { MarketSimulator } from '../pipeline/feeds/simulator/index.js';
import { startPipeline } from '../pipeline/pipeline.js';
import { ChdbStore, applyMigrations } from '../pipeline/store/index.js';
import type { BenchFigure } from './report.js';

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

/**
 * Pipeline throughput (normalizer, snapshot, opportunity engines, ClickHouse sinks on chDB) against the raw bus
 * carrying the same ticks to a consumer that does nothing: the ratio is what processing costs.
 */
export async function benchPipeline(tickCount = 200_000): Promise<BenchFigure[]> {
  const { ticks, start } = recordedTicks(tickCount);
  const key = (t: RawTick): string => `${t.book}:${t.bookEventId}`;

  const rawBus = new MemoryBus();
  const sink = rawBus.consumer({ groupId: 'noop', topic: TOPICS.rawTicks, fromBeginning: true, maxBatchSize: 5000 });
  sink.run(async () => {});
  const rawProducer = rawBus.producer();
  const rawMs = await pumpUntilDrained((b) => rawProducer.send(TOPICS.rawTicks, b.map((t) => ({ key: key(t), partitionKey: t.league, value: t }))), ticks, () => sink.lag());
  await sink.stop();
  await rawBus.close();

  const dir = mkdtempSync(join(tmpdir(), 'odds-bench-'));
  const store = new ChdbStore(dir);
  await applyMigrations(store);
  const clock = new ManualClock(start);
  const bus = new MemoryBus({ now: () => clock.now() });
  const pipeline = startPipeline({ bus, store, clock, logger: pino({ level: 'silent' }), catalog: { teams: TEAMS, leagues: LEAGUES } });
  const producer = bus.producer();
  const ms = await pumpUntilDrained((b) => producer.send(TOPICS.rawTicks, b.map((t) => ({ key: key(t), partitionKey: t.league, value: t }))), ticks, () => pipeline.lag());
  const stats = pipeline.stats();
  await pipeline.stop();
  await bus.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });

  const unmatched = Object.values(stats.normalizer.unmatched).reduce((a, b) => a + (b ?? 0), 0);
  if (unmatched > 0) process.stdout.write(`  note: ${unmatched} of ${tickCount} ticks unmatched by the normalizer\n`);
  return [
    {
      name: `pipeline ticks/s (${tickCount.toLocaleString('en-US')} ticks, chDB sinks)`,
      value: tickCount / (ms / 1000),
      unit: 'ticks/s',
      baseline: { name: 'raw bus, no-op consumer', value: tickCount / (rawMs / 1000) },
    },
  ];
}
