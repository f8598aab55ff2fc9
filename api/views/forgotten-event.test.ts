// The normalizer evicts an event a day after its start; with no tombstone on `events` (and a board
// that skipped empty records) every API board kept every event it had ever been sent, and so did
// the delayed boards and the stream sources that follow it. The tombstone now reaches them all.
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { MemoryBus } from '../../pipeline/bus/index.js';
import { ManualClock } from '../../pipeline/clock.js';
import { TOPICS } from '../../schemas/index.js';
import type { CanonicalEvent } from '../../schemas/index.js';
import { LiveBoard } from './board.js';
import type { BoardListener } from './board.js';
import { startChangelogViews } from './changelog-views.js';
import { DelayedBoard } from './delayed-board.js';

const logger = pino({ level: 'silent' });
const T0 = Date.UTC(2026, 10, 29, 2);
const DELAY = 60_000;

const event = (id: string): CanonicalEvent => ({
  id,
  sport: 'basketball',
  league: 'nba',
  homeTeamId: 'nba-lal',
  awayTeamId: 'nba-bos',
  startTime: T0 - 86_400_000,
  status: 'final',
  isLive: false,
  externalIds: {},
  updatedAt: T0,
});

async function settle(): Promise<void> {
  await new Promise((r) => setTimeout(r, 150));
}

describe("an evicted event's tombstone on events", () => {
  it('makes the live board, a delayed board (once the delay has passed) and every listener forget the event', async () => {
    const bus = new MemoryBus();
    const clock = new ManualClock(T0);
    const board = new LiveBoard({ now: () => clock.now() });
    const delayed = new DelayedBoard(DELAY, clock);
    delayed.follow(board);
    const told: string[] = [];
    const listener: BoardListener = { applyEvent: () => {}, applyChange: () => {}, eventForgotten: (id) => told.push(id) };
    board.subscribe(listener);
    const stages = startChangelogViews(bus, board, 'r1', logger);

    await bus.producer().send(TOPICS.events, [
      { key: 'nba-1', value: event('nba-1') },
      { key: 'nba-2', value: event('nba-2') },
    ]);
    await settle();
    clock.set(T0 + DELAY);
    expect([[...board.allEvents()].length, [...delayed.sync().allEvents()].length]).toEqual([2, 2]);

    await bus.producer().send(TOPICS.events, [{ key: 'nba-1', value: null }]);
    await settle();
    expect([...board.allEvents()].map((e) => e.id)).toEqual(['nba-2']);
    expect(board.event('nba-1')).toBeUndefined();
    expect(told).toEqual(['nba-1']);
    // The delayed board shows the live board as it was a delay ago: the event until then.
    expect([...delayed.sync().allEvents()].map((e) => e.id)).toEqual(['nba-1', 'nba-2']);
    clock.set(T0 + 2 * DELAY);
    expect([...delayed.sync().allEvents()].map((e) => e.id)).toEqual(['nba-2']);

    await Promise.all(stages.map((s) => s.stop()));
    await bus.close();
  });

  it('changes nothing for an event the board never had', () => {
    const board = new LiveBoard();
    const told: string[] = [];
    board.subscribe({ applyEvent: () => {}, applyChange: () => {}, eventForgotten: (id) => told.push(id) });
    board.applyEvent(event('nba-2'));
    board.forgetEvent('nba-1');
    expect([...board.allEvents()].map((e) => e.id)).toEqual(['nba-2']);
    expect(told).toEqual([]);
  });
});
