/**
 * The recorded match's score stream replayed with its odds recording (`FEED=replay` finds it
 * beside the odds): game state comes out in step with the prices, by publish time, and stands at
 * each checkpoint as the recording says (the figures below are read off the recording's own
 * `inningsStats` at those publish times).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RawGameState } from '../../../schemas/index.js';
import { ManualClock } from '../../clock.js';
import { silentLogger } from '../feed-runtime.js';
import { catalogueFilesBeside, loadCatalogueFiles, scoresFileBeside } from './catalogue-files.js';
import { BetfairReplayFeed } from './replay-feed.js';

const DATA = join(import.meta.dirname, '../../../../shared/data');
const ODDS_FILE = join(DATA, 'betfair_stream_1.200806927_cricket_match_odds.jsonl');
const SCORES_FILE = join(DATA, 'betfair_stream_1.200806927_cricket_scores.jsonl');
const present = existsSync(ODDS_FILE) && existsSync(SCORES_FILE);
if (!present) console.warn(`skipping the Betfair score replay: ${SCORES_FILE} is absent`);

/** [publish time, status, innings, Netherlands runs/wickets/overs, Papua New Guinea runs/wickets/overs] */
const CHECKPOINTS: [number, string, string, [number, number, string], [number, number, string]][] = [
  [1657537801699, 'live', 'I1', [0, 0, '0'], [0, 0, '0']],
  [1657544917535, 'live', 'I2', [163, 7, '20'], [0, 0, '0']],
  [1657546822027, 'live', 'I2', [163, 7, '20'], [35, 2, '7.1']],
  [1657550299659, 'final', 'I2', [163, 7, '20'], [111, 10, '19.4']],
];

describe.skipIf(!present)('the recorded cricket scores, replayed with the odds', () => {
  it('finds the score recording beside the odds recording', async () => {
    expect(await scoresFileBeside(ODDS_FILE)).toBe(SCORES_FILE);
  });

  it('reports game state in step with the prices and as the recording stands at each checkpoint', { timeout: 60_000 }, async () => {
    const clock = new ManualClock(0);
    const feed = new BetfairReplayFeed({
      file: ODDS_FILE,
      catalogue: await loadCatalogueFiles(await catalogueFilesBeside(ODDS_FILE)),
      scoresFile: SCORES_FILE,
      book: 'betfair_ex_eu',
      speed: 'max',
      clock,
      logger: silentLogger,
    });
    const timeline: { kind: 'ticks' | 'state'; at: number }[] = [];
    const states: RawGameState[] = [];
    feed.onGameState((s) => {
      states.push(...s);
      for (const state of s) timeline.push({ kind: 'state', at: state.ts });
      return Promise.resolve();
    });
    await feed.start((ticks) => {
      timeline.push({ kind: 'ticks', at: clock.now() });
      for (const t of ticks) expect(t.ts).toBe(clock.now());
      return Promise.resolve();
    });
    const stats = await feed.done;
    expect(stats.completed).toBe(true);
    expect(stats.gameStates).toBe(states.length);
    // In step: one timeline, never running back, prices both before and after the first report.
    for (let i = 1; i < timeline.length; i++) expect(timeline[i]?.at).toBeGreaterThanOrEqual(timeline[i - 1]?.at ?? 0);
    const firstState = timeline.findIndex((e) => e.kind === 'state');
    expect(timeline.slice(0, firstState).some((e) => e.kind === 'ticks')).toBe(true);
    expect(timeline.slice(firstState).some((e) => e.kind === 'ticks')).toBe(true);
    for (const [at, status, period, home, away] of CHECKPOINTS) {
      const state = states.filter((s) => s.ts <= at).at(-1);
      expect(state, `at ${at}`).toMatchObject({
        bookEventId: '31573045',
        homeTeam: 'Netherlands',
        awayTeam: 'Papua New Guinea',
        status,
        period,
        homeScore: home[0],
        awayScore: away[0],
        extras: { wickets: [home[1], away[1]], overs: [home[2], away[2]] },
      });
    }
    expect(states.at(-1)).toMatchObject({ status: 'final', homeScore: 163, awayScore: 111 });
  });
});
