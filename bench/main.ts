import { cpus } from 'node:os';
import { benchApi } from './api.js';
import { benchDelta } from './delta.js';
import { benchKafka } from './kafka.js';
import { benchOpportunities } from './opportunities.js';
import { benchPipeline } from './pipeline.js';
import { formatFigures } from './report.js';
import type { BenchFigure } from './report.js';

/**
 * `make bench`: each figure beside a baseline measured in the same run on the same machine, so
 * the ratio means something on a shared, noisy box. Bounded: about a minute in all.
 */
async function main(): Promise<void> {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  process.stdout.write(`odds-platform bench — node ${process.version}, ${cpus().length} x ${cpu}\n\n`);
  const sections: [string, () => Promise<BenchFigure[]>][] = [
    ['Pipeline (normalizer + snapshot + opportunities + ClickHouse sinks)', () => benchPipeline()],
    ['API (GET /odds from the live board)', () => benchApi()],
    ['Opportunity engines (+EV, arbitrage, middles, low-hold)', () => benchOpportunities()],
    ['Delta polling and rate limiting', () => benchDelta()],
    ['Kafka (librdkafka mock cluster): pipeline with Avro against raw kafkajs', () => benchKafka()],
  ];
  // `make bench ONLY=kafka`: the sections whose title contains the word, case-insensitive.
  const only = process.env['BENCH_ONLY']?.toLowerCase();
  for (const [title, run] of sections.filter(([t]) => !only || t.toLowerCase().includes(only))) {
    const t0 = performance.now();
    const figures = await run();
    process.stdout.write(`${formatFigures(title, figures)}\n  (${((performance.now() - t0) / 1000).toFixed(1)} s)\n\n`);
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
