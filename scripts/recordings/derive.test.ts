import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RECORDINGS, deriveRecording, locateRecording, missingRecordingNote } from './index.js';
import type { DerivedRecording } from './index.js';

const freshDir = (): string => {
  const dir = join(mkdtempSync(join(tmpdir(), 'derive-')), 'recordings');
  mkdirSync(dir, { recursive: true });
  return dir;
};

// 'ab' and its SHA-256.
const joined: DerivedRecording = {
  file: 'joined.txt',
  check: 'derived',
  sha256: 'fb8e20fc2e4c3f248c60c39bd652f3c1347298bb977b8b4d5903b85055620603',
  sources: ['a.txt', 'b.txt'],
  write: (texts) => texts.join(''),
  origin: 'a test',
};

describe('make data: a recording written from other recordings', () => {
  it('writes it from its sources when the result has the recorded checksum', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'a.txt'), 'a');
    writeFileSync(join(dir, 'b.txt'), 'b');
    expect(await deriveRecording(joined, dir)).toEqual({ file: 'joined.txt', outcome: 'derived', path: join(dir, 'joined.txt') });
    expect(readFileSync(join(dir, 'joined.txt'), 'utf8')).toBe('ab');
  });

  it('refuses a result with another checksum and leaves no file behind', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'a.txt'), 'a');
    writeFileSync(join(dir, 'b.txt'), 'c');
    const outcome = await deriveRecording(joined, dir);
    expect(outcome).toMatchObject({ outcome: 'failed', url: 'the recordings a.txt, b.txt' });
    expect(outcome.outcome === 'failed' && outcome.reason).toMatch(/^checksum [0-9a-f]{64}, expected fb8e20fc/);
    expect(locateRecording('joined.txt', [dir])).toBeNull();
  });

  it('fails naming the source it lacks', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'a.txt'), 'a');
    expect(await deriveRecording(joined, dir)).toEqual({
      file: 'joined.txt',
      outcome: 'failed',
      url: 'the recordings a.txt, b.txt',
      reason: `b.txt is not in ${dir}`,
    });
  });
});

describe('the Betfair catalogue written from the two Betfair recordings', () => {
  const catalogue = RECORDINGS.find((r): r is DerivedRecording => r.check === 'derived' && r.file.startsWith('betfair_catalogue_'));
  if (!catalogue) throw new Error('make data lists no Betfair catalogue');
  const sources = catalogue.sources.map((file) => locateRecording(file));
  const missing = catalogue.sources.find((_, i) => sources[i] === null);

  it.skipIf(missing !== undefined)(
    missing === undefined ? 'is byte for byte the catalogue file the replay reads' : missingRecordingNote(missing),
    async () => {
      const dir = freshDir();
      catalogue.sources.forEach((file, i) => copyFileSync(sources[i] ?? '', join(dir, file)));
      const outcome = await deriveRecording(catalogue, dir);
      expect(outcome).toEqual({ file: catalogue.file, outcome: 'derived', path: join(dir, catalogue.file) });
      const written = JSON.parse(readFileSync(join(dir, catalogue.file), 'utf8')) as {
        marketName: string;
        runners: { selectionId: number; runnerName: string }[];
        event: { name: string };
        eventType: { name: string };
      }[];
      expect(written).toHaveLength(1);
      expect(written[0]?.marketName).toBe('Match Odds');
      expect(written[0]?.eventType.name).toBe('Cricket');
      expect(written[0]?.event.name).toBe('Netherlands v Papua New Guinea');
      expect(written[0]?.runners.map((r) => [r.selectionId, r.runnerName])).toEqual([
        [228749, 'Netherlands'],
        [2857977, 'Papua New Guinea'],
      ]);
    },
  );
});
