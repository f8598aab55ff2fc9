import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../pipeline/clock.js';
import { BetfairReplayFeed, readCatalogue, catalogueOf } from '../pipeline/feeds/betfair/index.js';
import { silentLogger } from '../pipeline/feeds/feed-runtime.js';
import { LadderFold } from '../pipeline/feeds/betfair/fixtures/ladder-fold.js';
import { startTestSystem } from './support/system.js';
import type { TestSystem } from './support/system.js';

/**
 * The recorded Betfair cricket market through the whole system: what /odds serves for the
 * exchange is, for each runner, the best back price net of the market's commission, the best lay
 * and the sizes at both, as an independent fold of the recording's ladders has them at that moment.
 */

const RECORDING = resolve('..', 'shared', 'data', 'betfair_stream_1.200806927_cricket_match_odds.jsonl');
const CATALOGUE = resolve('..', 'shared', 'data', 'betfair_catalogue_1.200806927.json');
const present = existsSync(RECORDING) && existsSync(CATALOGUE);
if (!present) console.warn(`skipping the Betfair replay: ${RECORDING} is not present (recordings live in ../shared/data)`);

type Row = Record<string, unknown>;

async function servedExchangeRows(sys: TestSystem): Promise<string[]> {
  const events = (await sys.get('/api/v1/events?sport=cricket', sys.demoKeys.enterprise)).body['data'] as Row[];
  const event = events.find((e) => e['home_team'] === 'Netherlands' && e['away_team'] === 'Papua New Guinea');
  if (event === undefined) return [];
  const odds = (await sys.get(`/api/v1/odds?event=${String(event['id'])}&sportsbook=betfair_ex_eu`, sys.demoKeys.enterprise)).body[
    'data'
  ] as Row[];
  return odds
    .filter((o) => o['is_active'] !== false)
    .map(
      (o) =>
        `${String(o['selection_type'])}|${String(o['odds_american'])}|${String(o['back'])}|${String(o['max_bet'])}|${String(o['lay'])}|${String(o['max_lay'])}`,
    )
    .sort();
}

describe.skipIf(!present)('replay of the recorded Betfair Exchange Stream', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('is picked by FEED=replay from the file itself, names come from the catalogue beside it, a bad line goes to dead-letter', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'betfair-replay-'));
    dirs.push(dir);
    const lines = readFileSync(RECORDING, 'utf8').split('\n').slice(0, 1200);
    const file = join(dir, 'betfair_stream_slice.jsonl');
    writeFileSync(file, [...lines.slice(0, 600), '{"op":"mcm","pt":1657', ...lines.slice(600)].join('\n'));
    copyFileSync(CATALOGUE, join(dir, 'betfair_catalogue_1.200806927.json'));
    const sys = await startTestSystem({ FEED: 'replay', REPLAY_FILE: file, SINK_MAX_WAIT_MS: '0' });
    try {
      expect(sys.feed).toBeInstanceOf(BetfairReplayFeed);
      const stats = await (sys.feed as BetfairReplayFeed).done;
      expect(stats).toMatchObject({ completed: true, messages: 1201, changes: 1200, deadLetters: 1, error: null });
      expect(await sys.drained()).toBe(true);
      const fold = new LadderFold();
      for (const line of lines) fold.apply(line);
      expect(fold.expected()).toHaveLength(2);
      expect(await servedExchangeRows(sys)).toEqual(fold.expected().sort());
    } finally {
      await sys.close();
    }
  });

  it('serves each runner’s net back price, best lay and sizes at every checkpoint of the whole recording, and nothing once the market closed', async () => {
    const lines = readFileSync(RECORDING, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    const clock = new ManualClock(0);
    const fold = new LadderFold();
    let applied = 0;
    let checkpoints = 0;
    let nextCheckpoint = 997;
    let failure: unknown = null;
    let sys: TestSystem | null = null;
    const catalogue = catalogueOf(readCatalogue(JSON.parse(readFileSync(CATALOGUE, 'utf8'))));
    // The feed waits between two changes: the changes before the wait are all out, the board can be checked.
    const feed = new BetfairReplayFeed({
      file: RECORDING,
      catalogue,
      book: 'betfair_ex_eu',
      speed: 1e12,
      clock,
      logger: silentLogger,
      sleep: async () => {
        while (applied < feed.stats.changes) fold.apply(lines[applied++] ?? '');
        if (failure !== null || sys === null || applied < nextCheckpoint) return;
        nextCheckpoint += 997;
        try {
          expect(await sys.drained()).toBe(true);
          expect(await servedExchangeRows(sys), `after line ${applied}`).toEqual(fold.expected().sort());
          checkpoints++;
        } catch (e) {
          failure ??= e;
        }
      },
    });
    sys = await startTestSystem({ SINK_MAX_WAIT_MS: '0' }, { clock, feed: () => feed });
    try {
      const stats = await feed.done;
      expect(stats).toMatchObject({ completed: true, changes: lines.length, deadLetters: 0 });
      if (failure !== null) throw failure;
      expect(checkpoints).toBeGreaterThan(5);
      expect(await sys.drained()).toBe(true);
      expect(await servedExchangeRows(sys)).toEqual([]);
    } finally {
      await sys.close();
    }
  }, 600_000);
});
