import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { CanonicalEvent, OddsChange } from '../schemas/index.js';
import { ManualClock } from '../pipeline/clock.js';
import { fragmentsFor } from '../api/contract/odds-fragments.js';
import type { LiveBoard } from '../api/views/board.js';
import { LiveBoard as Board } from '../api/views/board.js';
import { Catalog } from '../api/views/catalog.js';
import { TierViews } from '../api/views/tier-views.js';
import { buildBoard } from './board-fixture.js';
import type { BenchFigure } from './report.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heap(): number {
  for (let i = 0; i < 2; i++) gc();
  return process.memoryUsage().heapUsed;
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
  const h0 = heap();
  let fixture: { rows: unknown[] } | null = buildBoard(events, clock, nothing);
  const rowsOnly = (heap() - h0) / fixture.rows.length;
  fixture = null;

  const h1 = heap();
  const board = new Board({ now: () => clock.now() });
  const views = new TierViews(board, clock, { syncEveryMs: 0 });
  const built = buildBoard(events, clock, board);
  clock.advance(61_000);
  views.sync();
  const rows = built.rows.length;
  const afterBuild = (heap() - h1) / rows;
  for (const { board: b } of views.feeds()) for (const e of b.activeEvents()) b.mainLines(e.id);
  const afterIndex = (heap() - h1) / rows;
  const fragments = fragmentsFor(new Catalog());
  for (const e of board.activeEvents()) {
    const main = board.mainLines(e.id);
    for (const r of board.rowsOf(e.id)) fragments.of(r, e, main);
  }
  const afterFragments = (heap() - h1) / rows;
  // Held to here, so the measurement above cannot find the cache unreachable.
  const serialized = fragments.serialized;
  process.stdout.write(`  ${rows.toLocaleString('en-US')} live prices, ${views.feeds().length} tier views (${views.feeds().map((f) => `${f.feed}: ${f.board.rowCount.toLocaleString('en-US')}`).join(', ')}); change logs ${views.feeds().map((f) => f.board.log.length.toLocaleString('en-US')).join(' + ')} entries; ${serialized.toLocaleString('en-US')} rows serialized, the newest 200,000 kept as fragments\n`);
  views.close();
  const baseline = { name: 'the row objects alone', value: rowsOnly };
  const target = { limit: 1024, better: 'lower' } as const;
  return [
    { name: 'heap per live price, board built, all views', value: afterBuild, unit: 'B', baseline, target },
    { name: '  + row indexes and main lines of every event', value: afterIndex, unit: 'B', baseline, target },
    { name: '  + fragment cache full (200k fragments)', value: afterFragments, unit: 'B', baseline, target },
  ];
}
