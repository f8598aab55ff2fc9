// A replica's views read every changelog from the beginning at every start and never commit
// (changelog-views.ts). The splits and game-state views committed: started again under the same
// replica id (a restart: `make run` on its saved log, or a supervisor's restart on Kafka with
// API_REPLICA_ID set), they resumed from their group's last commit and the new process's boards
// lacked every split and live game written before, until the next update of each.
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { MemoryBus } from '../../pipeline/bus/index.js';
import { ManualClock } from '../../pipeline/clock.js';
import { TOPICS } from '../../schemas/index.js';
import type { GameState, SplitsSnapshot } from '../../schemas/index.js';
import { LiveBoard } from './board.js';
import { startChangelogViews } from './changelog-views.js';
import { GameStateBoard } from './gamestate-board.js';
import { SplitsBoard } from './splits-board.js';

const logger = pino({ level: 'silent' });
const T0 = Date.UTC(2026, 10, 29, 2);

const game: GameState = {
  eventId: 'nba-1',
  sport: 'basketball',
  league: 'nba',
  homeTeamId: 'h',
  awayTeamId: 'a',
  status: 'live',
  homeScore: 10,
  awayScore: 8,
  period: 'Q1',
  clock: '5:00',
  possession: null,
  server: null,
  lastPlay: null,
  extras: {},
  primaryBook: 'pinnacle',
  bookCount: 3,
  updatedAt: T0,
};
const split = { key: 'nba-1|dk', eventId: 'nba-1', book: 'dk', ts: T0, sides: [], signals: {} } as unknown as SplitsSnapshot;

async function settle(): Promise<void> {
  await new Promise((r) => setTimeout(r, 150));
}

describe("a replica's views started again under the same replica id", () => {
  it('hold the splits and live games written before the restart, read from the start of their changelogs', async () => {
    let bus = new MemoryBus();
    const clock = new ManualClock(T0);
    await bus.producer().send(TOPICS.gameState, [{ key: game.eventId, partitionKey: game.eventId, value: game }]);
    await bus.producer().send(TOPICS.splits, [{ key: split.key, partitionKey: split.eventId, value: split }]);

    const start = (): { splits: SplitsBoard; games: GameStateBoard; stop: () => Promise<void> } => {
      const splits = new SplitsBoard(clock, { syncEveryMs: 0 });
      const games = new GameStateBoard();
      const stages = startChangelogViews(bus, new LiveBoard(), 'r1', logger, undefined, splits, games);
      return { splits, games, stop: async () => void (await Promise.all(stages.map((s) => s.stop()))) };
    };
    const first = start();
    await settle();
    expect([first.splits.size, first.games.list().length]).toEqual([1, 1]);
    await first.stop();
    // The process stops and starts again on the log it saved.
    const image = bus.image();
    await bus.close();
    bus = new MemoryBus({ image });

    const again = start();
    await settle();
    expect({ splits: again.splits.latest().map((s) => s.key), games: again.games.list().map((g) => g.eventId) }).toEqual({
      splits: ['nba-1|dk'],
      games: ['nba-1'],
    });
    await again.stop();
    await bus.close();
  });
});
