import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { benchAccounts } from './accounts.js';
import { benchAnalyst } from './analyst.js';
import { benchApi } from './api.js';
import { benchCompat } from './compat.js';
import { benchDelta, benchDeltaMillion } from './delta.js';
import { benchKafka } from './kafka.js';
import { benchScaleOut } from './scale-out.js';
import { benchMcp } from './mcp.js';
import { benchOpportunities } from './opportunities.js';
import { benchPipeline } from './pipeline.js';
import { benchPipelineThread } from './pipeline-thread.js';
import { benchSplits } from './splits.js';
import { benchShedding } from './shedding.js';
import { benchStreams } from './streams.js';
import { benchLargeSnapshot } from './snapshot.js';
import { inOwnProcess } from './memory.js';
import { benchReads } from './reads.js';
import { benchVisible } from './visible.js';
import { childResult } from './child-result.js';
import { formatFigures } from './report.js';
import type { BenchFigure } from './report.js';

/**
 * `make bench`: each figure beside a baseline measured in the same run on the same machine, so
 * the ratio means something on a shared, noisy box. Every section runs in a child process of its
 * own, so none measures what an earlier one left in the heap.
 */
const SECTION_INDEX = 'BENCH_SECTION_INDEX';

async function main(): Promise<void> {
  const sections: [string, () => Promise<BenchFigure[]>][] = [
    ['Pipeline (normalizer + snapshot + opportunities + closing lines + ClickHouse sinks)', () => benchPipeline()],
    ['API (GET /odds from the live board)', () => benchApi()],
    ["Pipeline thread: the API thread's event-loop delay and /health with the pipeline on it and in a worker", () => benchPipelineThread()],
    ['Reads: GET /odds on the 45k-price board against bare Fastify and pre-built bytes', () => benchReads(90)],
    ['Reads: GET /odds on the 1M-price board against bare Fastify and pre-built bytes', () => benchReads(2000)],
    ['Reads: memory per live price, 1M-price board, all tier views', () => inOwnProcess('memory')],
    ["Reads: the free tier's delay line, a minute of changes at 2,000/s on the 45k-price board", () => inOwnProcess('delay-line')],
    ['Reads: tick to visible on /odds at 2,000 ticks/s', () => benchVisible()],
    ['Reads: delta polling on the 1M-price board', () => benchDeltaMillion()],
    ['Opportunity engines (+EV, arbitrage, middles, low-hold)', () => benchOpportunities()],
    ['Delta polling and rate limiting', () => benchDelta()],
    ['Load shedding (200 connections of GET /odds?limit=200)', () => benchShedding()],
    ['Drop-in compatibility (ETag, main lines)', () => benchCompat()],
    ['Streams (1,000 SSE + 1,000 WebSocket subscribers, simulator at 2,000 ticks/s)', () => benchStreams()],
    ['Progressive stream snapshot of an unfiltered Sharp-sized board (one WebSocket, one SSE subscriber)', () => benchLargeSnapshot()],
    ['Keys and usage counting', () => benchAccounts()],
    ['Analyst SQL: /health while heavy statements run on the embedded engine', () => benchAnalyst()],
    ['Betting splits in the normalizer stage', () => benchSplits()],
    ['MCP tool calls (official SDK client, Streamable HTTP)', () => benchMcp()],
    ['Kafka (librdkafka mock cluster): pipeline with Avro against raw kafkajs', () => benchKafka()],
    ['Scale-out (librdkafka mock cluster): two pipeline processes in one consumer group against one', () => benchScaleOut()],
  ];
  // A section's child process runs that section alone and hands its figures back.
  const own = process.env[SECTION_INDEX];
  if (own !== undefined) {
    const section = sections[Number(own)];
    if (!section) throw new Error(`${SECTION_INDEX}=${own}: no such section`);
    const figures = await section[1]();
    await new Promise<void>((resolve) => process.send?.(figures, () => resolve()) ?? resolve());
    return;
  }
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  process.stdout.write(`odds-platform bench — node ${process.version}, ${cpus().length} x ${cpu}\n\n`);
  // `make bench SECTION=shedding` runs the sections whose title contains the word.
  const only = process.argv[2]?.toLowerCase();
  for (const [index, [title]] of sections.entries()) {
    if (only && !title.toLowerCase().includes(only)) continue;
    const t0 = performance.now();
    // Each section in a process of its own (same node flags): the 1M-price sections once left
    // 5 GB of old space behind them in a shared process, and every later section measured its
    // own work plus V8 marking that heap on the second core (the engines read 5,784 ticks/s
    // after them against 36,000-40,000 alone).
    const figures = await childResult<BenchFigure[]>('./main.js', [], { env: { ...process.env, [SECTION_INDEX]: String(index) } });
    if (process.env['BENCH_JSON']) appendFigures(process.env['BENCH_JSON'], figures);
    process.stdout.write(`${formatFigures(title, figures)}\n  (${((performance.now() - t0) / 1000).toFixed(1)} s)\n\n`);
  }
}

/** `make bench-check` reads the run's figures from this file (bench/check.ts). */
function appendFigures(path: string, figures: readonly BenchFigure[]): void {
  const previous = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as BenchFigure[]) : [];
  writeFileSync(path, JSON.stringify([...previous, ...figures]));
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
