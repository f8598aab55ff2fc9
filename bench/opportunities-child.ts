import { run, syntheticTicks } from './opportunities.js';

/**
 * The engines' batched run in a process of its own, so that bench/opportunities.ts can compare
 * V8 heap settings (`--max-semi-space-size`) in one run: `opportunities-child.js <samples>`
 * sends its samples (wall and CPU milliseconds) to the parent over IPC.
 */
const samples = Number(process.argv[2] ?? 2);
const { events, ticks } = syntheticTicks();
run(events, ticks.slice(0, 20_000), 'batch'); // warm-up: JIT, not measured
const out: { ms: number; cpuMs: number }[] = [];
for (let i = 0; i < samples; i++) {
  const r = run(events, ticks, 'batch');
  out.push({ ms: r.ms, cpuMs: r.cpuMs });
}
process.send?.(out);
