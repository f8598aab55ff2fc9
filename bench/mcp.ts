import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { pino } from 'pino';
import type { RawTick } from '../schemas/index.js';
import type { Feed } from '../pipeline/feeds/feed.js';
import { ManualClock } from '../pipeline/clock.js';
import { loadConfig } from '../runtime/config.js';
import { startSystem } from '../runtime/system.js';
import { recordedTicks } from './pipeline.js';
import type { BenchFigure } from './report.js';

const KEY = 'bench-mcp-key-0123456789';
const run = promisify(execFile);

/** The recorded ticks once, then quiet: the board holds still while it is measured. */
function onceFeed(ticks: RawTick[]): Feed {
  return { name: 'bench', start: async (emit) => emit(ticks), stop: async () => {} };
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

const stats = (ms: number[]): { p50: number; p99: number } => {
  const sorted = [...ms].sort((a, b) => a - b);
  return { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) };
};

/**
 * One MCP tool call answering 50 odds rows (get_odds, limit 50) through the official SDK client,
 * against the same query over REST (GET /odds?limit=50) on the same embedded system, one request
 * at a time from one client in its own process: the latency an agent sees. Bounded by the number
 * of calls.
 */
export async function benchMcp(calls = 400): Promise<BenchFigure[]> {
  const { ticks, start } = recordedTicks(20_000);
  const dir = mkdtempSync(join(tmpdir(), 'odds-bench-mcp-'));
  // Latency, not shedding, is measured: on a loaded machine shedding would refuse calls of both paths.
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir, SHED_EVENT_LOOP_DELAY_MS: '0' });
  const sys = await startSystem(config, pino({ level: 'silent' }), { feed: () => onceFeed(ticks), clock: new ManualClock(start) });
  try {
    await sys.drained();
    sys.keys.add(KEY, 'enterprise', { requestsPerMinute: 1_000_000_000 });
    // The client runs in its own process (bench/mcp-client.ts), as an agent's would.
    const { stdout } = await run(
      process.execPath,
      [fileURLToPath(new URL('./mcp-client.js', import.meta.url)), sys.url, KEY, String(calls)],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    const out = JSON.parse(stdout) as { rest: number[]; mcp: number[]; raw: number[] };
    const r = stats(out.rest);
    const m = stats(out.mcp);
    const w = stats(out.raw);
    return [
      {
        name: 'MCP get_odds 50 rows, SDK client: p99',
        value: m.p99,
        unit: 'ms',
        baseline: { name: 'REST GET /odds?limit=50 p99', value: r.p99 },
      },
      { name: 'MCP get_odds 50 rows, SDK client: p50', value: m.p50, unit: 'ms', baseline: { name: 'REST p50', value: r.p50 } },
      { name: 'MCP get_odds 50 rows, plain POST: p99', value: w.p99, unit: 'ms', baseline: { name: 'REST p99', value: r.p99 } },
      { name: 'MCP get_odds 50 rows, plain POST: p50', value: w.p50, unit: 'ms', baseline: { name: 'REST p50', value: r.p50 } },
    ];
  } finally {
    await sys.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
