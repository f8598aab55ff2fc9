import { cpus } from 'node:os';
import { benchApi } from './api.js';
import { benchDelta } from './delta.js';
import { benchMcp } from './mcp.js';
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
  const sections: [string, string, () => Promise<BenchFigure[]>][] = [
    ['pipeline', 'Pipeline (normalizer + snapshot + opportunities + ClickHouse sinks)', () => benchPipeline()],
    ['api', 'API (GET /odds from the live board)', () => benchApi()],
    ['opportunities', 'Opportunity engines (+EV, arbitrage, middles, low-hold)', () => benchOpportunities()],
    ['delta', 'Delta polling and rate limiting', () => benchDelta()],
    ['mcp', 'MCP tool calls (official SDK client, Streamable HTTP)', () => benchMcp()],
  ];
  // `make bench SECTION=mcp` (or `node dist/bench/main.js mcp`) runs only the named sections.
  const only = new Set((process.argv[2] ?? process.env['SECTION'] ?? '').split(',').filter((s) => s.length > 0));
  for (const [id, title, run] of sections) {
    if (only.size > 0 && !only.has(id)) continue;
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
