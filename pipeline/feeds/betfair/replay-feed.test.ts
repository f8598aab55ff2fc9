import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DeadLetter, RawTick } from '../../../schemas/index.js';
import { ManualClock } from '../../clock.js';
import { silentLogger } from '../feed-runtime.js';
import { catalogueOf, readCatalogue } from './catalogue.js';
import { catalogueFilesBeside, loadCatalogueFiles } from './catalogue-files.js';
import { isStreamRecording } from './recording-format.js';
import { BetfairReplayFeed } from './replay-feed.js';

const dir = mkdtempSync(join(tmpdir(), 'betfair-replay-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const definition = {
  status: 'OPEN',
  inPlay: false,
  eventTypeId: '4',
  marketType: 'MATCH_ODDS',
  runners: [
    { id: 7, status: 'ACTIVE' },
    { id: 8, status: 'ACTIVE' },
  ],
};
const LINES = [
  {
    op: 'mcm',
    clk: '1',
    pt: 1_000,
    mc: [
      {
        id: '1.1',
        img: true,
        marketDefinition: definition,
        rc: [
          { id: 7, atb: [[2.5, 10]] },
          { id: 8, atb: [[1.6, 10]] },
        ],
      },
    ],
  },
  '{"op":"mcm","clk":"2","pt":2000,"mc":[{"id":"1.1","rc":[{"id":7,"atb":[[2.6]]}]}]}',
  '',
  { op: 'mcm', clk: '3', pt: 3_000, mc: [{ id: '1.1', rc: [{ id: 7, atb: [[2.6, 4]] }] }] },
].map((l) => (typeof l === 'string' ? l : JSON.stringify(l)));
const CATALOGUE = [
  {
    marketId: '1.1',
    marketStartTime: '2022-07-11T11:00:00.000Z',
    description: { marketType: 'MATCH_ODDS' },
    runners: [
      { selectionId: 7, runnerName: 'Netherlands', sortPriority: 1 },
      { selectionId: 8, runnerName: 'Nepal', sortPriority: 2 },
    ],
    eventType: { id: '4' },
    event: { id: '31', name: 'Netherlands v Nepal' },
  },
];

describe('BetfairReplayFeed', () => {
  it('replays stream messages on the recorded clock, sending a bad line to dead-letter and going on', async () => {
    const file = join(dir, 'stream.jsonl');
    writeFileSync(file, LINES.join('\n'));
    writeFileSync(join(dir, 'betfair_catalogue_1.1.json'), JSON.stringify(CATALOGUE));
    expect(await isStreamRecording(file)).toBe(true);
    expect(await catalogueFilesBeside(file)).toEqual([join(dir, 'betfair_catalogue_1.1.json')]);
    const clock = new ManualClock(0);
    const feed = new BetfairReplayFeed({
      file,
      catalogue: await loadCatalogueFiles(await catalogueFilesBeside(file)),
      book: 'betfair_ex_eu',
      speed: 'max',
      clock,
      logger: silentLogger,
    });
    const letters: DeadLetter[] = [];
    const ticks: RawTick[] = [];
    feed.onDeadLetter((l) => {
      letters.push(...l);
      return Promise.resolve();
    });
    await feed.start((t) => {
      ticks.push(...t);
      return Promise.resolve();
    });
    const stats = await feed.done;
    expect(stats).toMatchObject({
      messages: 3,
      changes: 2,
      ticks: 3,
      deadLetters: 1,
      completed: true,
      firstPublishTime: 1000,
      lastPublishTime: 3000,
    });
    expect(ticks.map((t) => `${t.ts} ${t.outcome} ${t.priceAmerican}`)).toEqual([
      // Back prices net of the recording's 5 % base rate.
      '1000 Netherlands 143',
      '1000 Nepal -175',
      '3000 Netherlands 152',
    ]);
    expect(letters).toEqual([
      {
        topic: 'betfair.stream',
        partition: 0,
        offset: 2,
        key: '1.1',
        reason: 'mc[0].rc[0].atb[0] is not 2 numbers',
        payloadBase64: Buffer.from(LINES[1] ?? '').toString('base64'),
        at: 1000,
      },
    ]);
    expect(clock.now()).toBe(3000);
  });

  it('tells an Odds API recording from a stream recording', async () => {
    const file = join(dir, 'odds.jsonl');
    writeFileSync(file, '{"timestamp":"2025-11-09T17:21:25Z","data":[]}\n');
    expect(await isStreamRecording(file)).toBe(false);
    expect(catalogueOf(readCatalogue({ not: 'an array' })).size).toBe(0);
  });
});
