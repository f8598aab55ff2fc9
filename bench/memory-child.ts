import { benchDelayLine, benchMemory } from './memory.js';
import type { BenchFigure } from './report.js';

/**
 * The sections that force full GCs, each in a process of its own (bench/memory.ts,
 * `inOwnProcess`): `memory-child.js <memory|delay-line>` prints its lines as the section does
 * and sends its figures to the parent over IPC. In the bench's main process every section's
 * modules and whatever an earlier section left behind are in the heap too (45 MB more when
 * this was split off), and a full GC marks all of it.
 */
const sections: Record<string, () => Promise<BenchFigure[]>> = { memory: () => benchMemory(), 'delay-line': () => benchDelayLine() };
const run = sections[process.argv[2] ?? ''];
if (!run) {
  process.stderr.write(
    `memory-child: unknown section ${JSON.stringify(process.argv[2])} (expected ${Object.keys(sections).join(' or ')})\n`,
  );
  process.exit(2);
}
run().then(
  (figures) => process.send?.(figures, () => process.exit(0)),
  (e: unknown) => {
    process.stderr.write(`memory-child failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
