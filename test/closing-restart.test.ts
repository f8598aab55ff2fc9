// Closing lines lost or re-captured after a restart. The closing processor started empty while
// its consumer groups resumed from their committed offsets: an event whose pre-match prices were
// consumed before a restart and that went live after it was "captured" with no prices (its close
// lost), and a restored event could be captured again from whatever the changelog held by then.
// The processor is now rebuilt from the closes already stored and from its inputs up to where
// its group resumes. A +EV opportunity that expired before kickoff was not graded after a
// restart: its versions were gone from the compacted `opportunities` changelog (a final version
// then a tombstone). What the closing processor grades is now kept in `clv_entries`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAGUES, TEAMS, TOPICS } from '../schemas/index.js';
import type { RawTick } from '../schemas/index.js';
import { MemoryBus } from '../pipeline/bus/index.js';
import { ManualClock } from '../pipeline/clock.js';
import { startPipeline } from '../pipeline/pipeline.js';
import { ChdbStore, applyMigrations } from '../pipeline/store/index.js';
import { rawTick } from './support/raw-tick.js';

const START = Date.UTC(2026, 10, 22, 19);

const raw = (over: Partial<RawTick>): RawTick => rawTick(START, over);
const dk = { book: 'draftkings', bookEventId: 'dk-9' };

describe('closing lines across restarts (one durable bus, one store, three pipeline processes in turn)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'odds-closing-restart-'));
  const store = new ChdbStore(dir);
  // The bus outlives the pipelines, like Kafka outlives a pipeline process.
  const bus = new MemoryBus();
  const clock = new ManualClock(START - 3600_000);
  beforeAll(async () => {
    await applyMigrations(store);
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs one pipeline "process" over these raw ticks until every stage caught up, then stops it. */
  async function run(ticks: RawTick[], now: number): Promise<void> {
    clock.set(now);
    const pipeline = startPipeline({
      bus,
      store,
      clock,
      logger: pino({ level: 'silent' }),
      catalog: { teams: TEAMS, leagues: LEAGUES },
      sinkMaxWaitMs: 0,
    });
    await pipeline.ready;
    await bus.producer().send(
      TOPICS.rawTicks,
      ticks.map((t) => ({ key: `${t.book}:${t.bookEventId}`, partitionKey: t.league, value: t })),
    );
    while (pipeline.lag() > 0) await new Promise((r) => setTimeout(r, 10));
    await pipeline.stop();
  }

  const closes = (): Promise<Record<string, unknown>[]> =>
    store.query(
      'SELECT sportsbook, selection, odds_american, toUnixTimestamp64Milli(captured_at) AS captured, no_vig_power FROM closing_odds FINAL ORDER BY sportsbook, selection',
    );

  it('captures the pre-match prices consumed before a restart, and never captures an event again after the next one', async () => {
    // Process 1: the pre-match market, two books.
    await run(
      [
        raw({}),
        raw({ outcome: 'Boston Celtics', priceAmerican: 110 }),
        raw({ ...dk, priceAmerican: -115 }),
        raw({ ...dk, outcome: 'Boston Celtics', priceAmerican: 105 }),
      ],
      START - 3600_000,
    );
    expect(await closes()).toEqual([]);

    // Process 2: the game starts; only Pinnacle goes on pricing live.
    await run(
      [
        raw({ isLive: true, priceAmerican: -300, ts: START + 60_000 }),
        raw({ isLive: true, outcome: 'Boston Celtics', priceAmerican: 240, ts: START + 60_000 }),
      ],
      START + 120_000,
    );
    const captured = await closes();
    expect(captured.map((c) => [c['sportsbook'], c['selection'], c['odds_american'], Number(c['captured'])])).toEqual([
      ['draftkings', 'away', 105, START + 120_000],
      ['draftkings', 'home', -115, START + 120_000],
      ['pinnacle', 'away', 110, START + 120_000],
      ['pinnacle', 'home', -120, START + 120_000],
    ]);
    expect(captured.every((c) => typeof c['no_vig_power'] === 'number')).toBe(true);

    // Process 3: more live prices, and a late DraftKings pre-match price, which amends its
    // close. DraftKings' pre-match rows are still the latest on the changelog while Pinnacle's
    // were replaced by live ones: an event captured again from the changelog would close
    // DraftKings without Pinnacle's reference (and at another time).
    await run(
      [raw({ isLive: true, priceAmerican: -350, ts: START + 600_000 }), raw({ ...dk, priceAmerican: -118, ts: START - 60_000 })],
      START + 900_000,
    );
    const amended = captured.map((c) =>
      c['sportsbook'] === 'draftkings' && c['selection'] === 'home' ? { ...c, odds_american: -118 } : c,
    );
    expect(await closes()).toEqual(amended);
  }, 120_000);

  it('grades a +EV opportunity that expired before kickoff, across a restart', async () => {
    const START2 = START + 86_400_000;
    const game = (over: Partial<RawTick>): RawTick =>
      raw({
        bookEventId: 'p-2',
        homeTeam: 'Miami Heat',
        awayTeam: 'Boston Celtics',
        outcome: 'Miami Heat',
        startTime: START2,
        ts: START2 - 7200_000,
        ...over,
      });
    const dk2 = { book: 'draftkings', bookEventId: 'dk-2' };
    // Process 1: DraftKings' Celtics at +130 against Pinnacle's -120 / +110: +EV.
    await run(
      [
        game({}),
        game({ outcome: 'Boston Celtics', priceAmerican: 110 }),
        game({ ...dk2, priceAmerican: -140 }),
        game({ ...dk2, outcome: 'Boston Celtics', priceAmerican: 130 }),
      ],
      START2 - 7200_000,
    );
    // Process 2: DraftKings cuts it to +100 before the start: the opportunity expires.
    await run([game({ ...dk2, outcome: 'Boston Celtics', priceAmerican: 100, ts: START2 - 3600_000 })], START2 - 3600_000);
    // Process 3: the game starts; the close is Pinnacle's -120 / +110.
    await run(
      [
        game({ isLive: true, priceAmerican: -300, ts: START2 + 60_000 }),
        game({ isLive: true, outcome: 'Boston Celtics', priceAmerican: 240, ts: START2 + 60_000 }),
      ],
      START2 + 120_000,
    );
    const grades = await store.query<Record<string, unknown>>(
      "SELECT sportsbook, selection, odds_american, clv_percent FROM clv_grades FINAL WHERE event_id LIKE 'nba-%-bos-mia' ORDER BY sportsbook, selection",
    );
    // Pinnacle's no-vig away probability at the close (power de-vig of -120 / +110) x 2.30 - 1.
    expect(grades.map((g) => [g['sportsbook'], g['selection'], g['odds_american']])).toEqual([['draftkings', 'away', 130]]);
    expect(Number(grades[0]?.['clv_percent'])).toBeGreaterThan(5);
  }, 120_000);
});
