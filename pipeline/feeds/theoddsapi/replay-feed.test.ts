import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RawTick } from '../../../schemas/index.js';
import { ManualClock } from '../../clock.js';
import { bookmaker, event, market, recordingLine } from './fixtures/builders.js';
import { ReplayFeed } from './replay-feed.js';
import { silentLogger } from '../feed-runtime.js';
import type { Sleep } from '../feed-runtime.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/nfl-sunday.jsonl', import.meta.url));
const S1 = Date.parse('2025-11-09T12:00:00Z');
const S2 = Date.parse('2025-11-09T12:30:00Z');
const S3 = Date.parse('2025-11-09T19:00:00Z');

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'theoddsapi-replay-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Batch {
  clockAt: number;
  ticks: RawTick[];
}

function recorder(clock: ManualClock): { batches: Batch[]; emit: (ticks: RawTick[]) => Promise<void> } {
  const batches: Batch[] = [];
  return {
    batches,
    emit: async (ticks) => {
      batches.push({ clockAt: clock.now(), ticks });
    },
  };
}

async function writeFixture(name: string, gzip: boolean): Promise<string> {
  const text = await readFile(FIXTURE);
  const file = join(dir, name);
  await writeFile(file, gzip ? gzipSync(text) : text);
  return file;
}

describe('ReplayFeed', () => {
  it.each([
    ['nfl.jsonl', false],
    ['nfl.jsonl.gz', true],
  ])('replays %s with the clock set to each snapshot before its ticks', async (name, gzip) => {
    const file = await writeFixture(name, gzip);
    const clock = new ManualClock(0);
    const { batches, emit } = recorder(clock);
    const feed = new ReplayFeed({ file, speed: 'max', clock, logger: silentLogger });
    await feed.start(emit);
    const stats = await feed.done;

    expect(batches.map((b) => [b.clockAt, b.ticks.length])).toEqual([
      [S1, 20],
      [S2, 4],
      [S3, 10],
    ]);
    expect(stats).toMatchObject({
      snapshots: 3,
      malformedLines: 0,
      ticks: 34,
      distinctEvents: 3,
      firstTimestamp: S1,
      lastTimestamp: S3,
      completed: true,
      stopped: false,
      error: null,
    });
    expect(stats.mapping).toMatchObject({ openTicks: 26, suspendedTicks: 8, confirmations: 2, unknownBookmakers: {} });
    expect(clock.now()).toBe(S3);
  });

  it('emits the third snapshot as line-move suspensions, pulled-book and finished-game suspensions', async () => {
    const clock = new ManualClock(0);
    const { batches, emit } = recorder(clock);
    const feed = new ReplayFeed({ file: FIXTURE, speed: 'max', clock, logger: silentLogger });
    await feed.start(emit);
    await feed.done;
    const third = batches[2]?.ticks ?? [];
    expect(third.map((t) => `${t.bookEventId} ${t.book} ${t.market} ${t.outcome} ${t.line ?? '-'} ${t.status} ${t.isLive}`)).toEqual([
      'evt-min-bal draftkings point_spread Baltimore Ravens -3.5 suspended true',
      'evt-min-bal draftkings point_spread Minnesota Vikings 3.5 suspended true',
      'evt-min-bal fanduel moneyline Baltimore Ravens - suspended true',
      'evt-min-bal fanduel moneyline Minnesota Vikings - suspended true',
      'evt-min-bal fanduel point_spread Baltimore Ravens -3.5 suspended true',
      'evt-min-bal fanduel point_spread Minnesota Vikings 3.5 suspended true',
      'evt-atl-ind draftkings moneyline Atlanta Falcons - suspended true',
      'evt-atl-ind draftkings moneyline Indianapolis Colts - suspended true',
      'evt-min-bal draftkings point_spread Baltimore Ravens -4 open true',
      'evt-min-bal draftkings point_spread Minnesota Vikings 4 open true',
    ]);
  });

  it("waits nothing at speed 'max' and the recorded gaps divided by a numeric speed", async () => {
    const waits = async (speed: number | 'max'): Promise<number[]> => {
      const requested: number[] = [];
      const sleep: Sleep = async (ms) => {
        requested.push(ms);
      };
      const clock = new ManualClock(0);
      const feed = new ReplayFeed({ file: FIXTURE, speed, clock, sleep, logger: silentLogger });
      await feed.start(recorder(clock).emit);
      await feed.done;
      return requested;
    };
    expect(await waits('max')).toEqual([]);
    // Gaps of 30 min and 6 h 30 min, at 60x: 30 s and 6 min 30 s.
    expect(await waits(60)).toEqual([30_000, 390_000]);
    expect(await waits(1_800)).toEqual([1_000, 13_000]);
  });

  it('compresses tiny real gaps with the real sleep', async () => {
    const file = join(dir, 'tiny.jsonl');
    const lines = [0, 400, 800].map((ms) => recordingLine(new Date(S1 + ms).toISOString(), []));
    await writeFile(file, `${lines.join('\n')}\n`);
    const clock = new ManualClock(0);
    const started = performance.now();
    const feed = new ReplayFeed({ file, speed: 8, clock, logger: silentLogger });
    await feed.start(recorder(clock).emit);
    const stats = await feed.done;
    const elapsed = performance.now() - started;
    expect(stats.snapshots).toBe(3);
    expect(elapsed).toBeGreaterThanOrEqual(95); // 800 ms of recording at 8x: 100 ms
    expect(elapsed).toBeLessThan(700);
    expect(clock.now()).toBe(S1 + 800);
  });

  it('counts and skips a malformed line', async () => {
    const file = join(dir, 'broken.jsonl');
    const good = (ts: string, price: number): string =>
      recordingLine(ts, [
        event('e1', 'basketball_nba', '2025-11-10T00:00:00Z', 'Boston Celtics', 'New York Knicks', [
          bookmaker('draftkings', ts, [market('h2h', ts, [{ name: 'Boston Celtics', price }])]),
        ]),
      ]);
    const text = [
      good('2025-11-09T12:00:00Z', -150),
      '{"timestamp": "2025-11-09T12:10:00Z", "data": [trunc',
      '{"timestamp": "2025-11-09T12:15:00Z"}',
      '',
      good('2025-11-09T12:20:00Z', -160),
    ].join('\n');
    await writeFile(file, text);
    const clock = new ManualClock(0);
    const { batches, emit } = recorder(clock);
    const feed = new ReplayFeed({ file, speed: 'max', clock, logger: silentLogger });
    await feed.start(emit);
    const stats = await feed.done;
    expect(stats).toMatchObject({ snapshots: 2, malformedLines: 2, ticks: 2, completed: true });
    expect(batches.map((b) => b.ticks.map((t) => t.priceAmerican))).toEqual([[-150], [-160]]);
  });

  it('reports progress after each snapshot', async () => {
    const clock = new ManualClock(0);
    const progress: unknown[] = [];
    const feed = new ReplayFeed({ file: FIXTURE, speed: 'max', clock, logger: silentLogger, onProgress: (p) => progress.push(p) });
    await feed.start(recorder(clock).emit);
    await feed.done;
    expect(progress).toEqual([
      { snapshots: 1, ticks: 20, timestamp: S1 },
      { snapshots: 2, ticks: 24, timestamp: S2 },
      { snapshots: 3, ticks: 34, timestamp: S3 },
    ]);
  });

  it('stops during a wait and emits nothing further', async () => {
    const clock = new ManualClock(0);
    const { batches, emit } = recorder(clock);
    let waiting: () => void = () => undefined;
    const isWaiting = new Promise<void>((resolve) => {
      waiting = resolve;
    });
    const sleep: Sleep = (_ms, signal) =>
      new Promise((resolve) => {
        waiting();
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
    const feed = new ReplayFeed({ file: FIXTURE, speed: 1, clock, sleep, logger: silentLogger });
    await feed.start(emit);
    await isWaiting;
    await feed.stop();
    const stats = await feed.done;
    expect(batches).toHaveLength(1);
    expect(stats).toMatchObject({ snapshots: 1, completed: false, stopped: true, error: null });
  });

  it('rejects start for a missing file', async () => {
    const feed = new ReplayFeed({ file: join(dir, 'missing.jsonl'), speed: 'max', clock: new ManualClock(0), logger: silentLogger });
    await expect(feed.start(async () => undefined)).rejects.toThrow(/ENOENT/);
  });

  it('ends with an error, not a crash, when the gzip is corrupt or emit rejects', async () => {
    const gz = gzipSync(await readFile(FIXTURE));
    const corrupt = join(dir, 'corrupt.jsonl.gz');
    await writeFile(corrupt, gz.subarray(0, Math.floor(gz.length / 2)));
    const clock = new ManualClock(0);
    const feed = new ReplayFeed({ file: corrupt, speed: 'max', clock, logger: silentLogger });
    await feed.start(recorder(clock).emit);
    expect((await feed.done).error).toMatch(/^read failed/);

    const failing = new ReplayFeed({ file: FIXTURE, speed: 'max', clock: new ManualClock(0), logger: silentLogger });
    await failing.start(async () => {
      throw new Error('bus down');
    });
    expect(await failing.done).toMatchObject({ snapshots: 0, completed: false, error: 'emit failed: bus down' });
  });

  it('refuses a speed that is not positive', () => {
    expect(() => new ReplayFeed({ file: FIXTURE, speed: 0, clock: new ManualClock(0) })).toThrow(RangeError);
  });
});
