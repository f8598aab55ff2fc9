import { oddsRowKey } from '../schemas/index.js';
import type { CanonicalEvent, OddsChange, OddsRow } from '../schemas/index.js';
import { ManualClock } from '../pipeline/clock.js';
import { fragmentsFor } from '../api/contract/odds-fragments.js';
import type { LiveBoard } from '../api/views/board.js';
import { LiveBoard as Board } from '../api/views/board.js';
import { Catalog } from '../api/views/catalog.js';
import { TierViews } from '../api/views/tier-views.js';
import { buildBoard, repriced } from './board-fixture.js';
import { summarize } from './report.js';
import type { BenchFigure, Spread } from './report.js';
import { gc, heapAfterGc } from '../test/support/gc.js';
import { childResult } from './child-result.js';

/**
 * Runs `benchMemory` or `benchDelayLine` in a child process (bench/memory-child.ts) with the
 * bench's own Node flags, so their heap and full-GC figures count only what the section built.
 */
export function inOwnProcess(section: 'memory' | 'delay-line'): Promise<BenchFigure[]> {
  return childResult<BenchFigure[]>('./memory-child.js', [section]);
}

/** A board that keeps nothing: the fixture's rows alone. */
const nothing = { applyEvent: (_e: CanonicalEvent) => undefined, applyChange: (_c: OddsChange) => undefined } as unknown as LiveBoard;

/**
 * Heap per live price of a board of `events` x 504 prices with every tier view (the live board,
 * the free tier's delayed board, their change logs), after building it, after the first read of
 * every event (row indexes and main lines built), and with the fragment cache full. Baseline:
 * the row objects alone, in an array.
 */
export async function benchMemory(events = 2000): Promise<BenchFigure[]> {
  const clock = new ManualClock(Date.UTC(2026, 10, 21, 18));
  const h0 = heldAfterGc();
  let fixture: { rows: unknown[] } | null = buildBoard(events, clock, nothing);
  const rowsOnly = (heldAfterGc() - h0) / fixture.rows.length;
  fixture = null;

  const h1 = heldAfterGc();
  const board = new Board({ now: () => clock.now() });
  const views = new TierViews(board, clock, { syncEveryMs: 0 });
  const built = buildBoard(events, clock, board);
  clock.advance(61_000);
  views.sync();
  const rows = built.rows.length;
  const afterBuild = (heldAfterGc() - h1) / rows;
  for (const { board: b } of views.feeds()) for (const e of b.activeEvents()) b.mainLines(e.id);
  const afterIndex = (heldAfterGc() - h1) / rows;
  const fragments = fragmentsFor(new Catalog());
  for (const e of board.activeEvents()) {
    const main = board.mainLines(e.id);
    for (const r of board.rowsOf(e.id)) fragments.of(r, e, main);
  }
  const afterFragments = (heldAfterGc() - h1) / rows;
  // Held to here, so the measurement above cannot find the cache unreachable.
  const serialized = fragments.serialized;
  process.stdout.write(
    `  ${rows.toLocaleString('en-US')} live prices, ${views.feeds().length} tier views (${views
      .feeds()
      .map((f) => `${f.feed}: ${f.board.rowCount.toLocaleString('en-US')}`)
      .join(', ')}); change logs ${views
      .feeds()
      .map((f) => f.board.log.length.toLocaleString('en-US'))
      .join(' + ')} entries; ${serialized.toLocaleString('en-US')} rows serialized, the newest 200,000 kept as fragments\n`,
  );
  views.close();
  const baseline = { name: 'the row objects alone', value: rowsOnly };
  const target = { limit: 1024, better: 'lower' } as const;
  return [
    { name: 'heap per live price, board built, all views', value: afterBuild, unit: 'B', baseline, target },
    { name: '  + row indexes and main lines of every event', value: afterIndex, unit: 'B', baseline, target },
    { name: '  + fragment cache full (200k fragments)', value: afterFragments, unit: 'B', baseline, target },
  ];
}

/**
 * The JS heap plus the ArrayBuffers it holds (fragments are kept as Buffers, whose bytes live
 * outside the heap), after full collections: the memory a board and its caches keep.
 */
function heldAfterGc(): number {
  return heapAfterGc() + process.memoryUsage().arrayBuffers;
}

/** Milliseconds of a full, stop-the-world mark-compact, over `runs` of them. */
function fullGcMs(runs = 7): { median: number; spread: Spread } {
  heapAfterGc();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    gc();
    times.push(performance.now() - t);
  }
  return summarize(times);
}

/**
 * What the free tier's delay line costs the garbage collector: the 45k-price board with every
 * tier view, and a minute of repricings at 2,000 a second (120,000 changes) waiting in the line.
 * Figures: a full mark-compact and the heap with the line full; baseline: the same once the
 * line has drained into the delayed board (which then holds the same rows). A major GC's
 * marking is what stalls the event loop on two cores (docs/performance.md), and the line was a
 * fifth of what it marked when each waiting change was a dozen objects.
 */
export async function benchDelayLine(events = 90, perSecond = 2000): Promise<BenchFigure[]> {
  const clock = new ManualClock(Date.UTC(2026, 10, 23, 18));
  const board = new Board({ now: () => clock.now() });
  const views = new TierViews(board, clock, { syncEveryMs: 0 });
  const { rows } = buildBoard(events, clock, board);
  clock.advance(61_000);
  views.sync();
  let next = 0;
  const t0 = performance.now();
  for (let step = 0; step < 120; step++) {
    clock.advance(500);
    for (let i = 0; i < perSecond / 2; i++) {
      next = (next + 7919) % rows.length;
      const row = repriced(rows[next] as OddsRow, clock.now());
      rows[next] = row;
      board.applyChange({ key: oddsRowKey(row), eventId: row.eventId, row, changedAt: clock.now() });
    }
    views.sync();
  }
  const feedMs = performance.now() - t0;
  const waiting = views.pending();
  const full = fullGcMs();
  const heapFull = heapAfterGc();
  clock.advance(61_000);
  views.sync();
  const drained = fullGcMs();
  const heapDrained = heapAfterGc();
  process.stdout.write(
    `  ${rows.length.toLocaleString('en-US')} live prices; ${waiting.toLocaleString('en-US')} changes waiting in the line; fed and synced in ${feedMs.toFixed(0)} ms (live board, change logs and line)\n`,
  );
  views.close();
  return [
    {
      name: 'full GC with the line full',
      value: full.median,
      unit: 'ms',
      spread: full.spread,
      baseline: { name: 'line drained', value: drained.median, spread: drained.spread },
    },
    { name: 'heap with the line full', value: heapFull / 1e6, unit: 'MB', baseline: { name: 'line drained', value: heapDrained / 1e6 } },
  ];
}
