import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import {
  RECORDINGS,
  assembleRecording,
  dataSha256,
  differencesFromManifest,
  gitClones,
  locateRecording,
  missingRecordingNote,
  readManifest,
  readSnapshotLines,
} from './index.js';
import type { AssembledRecording, GitClones, HistoryManifest, SnapshotLine } from './index.js';

/** A repository whose `odds/nfl.json` is written, pretty-printed as the fetcher does, in one commit per snapshot. */
function oddsRepository(snapshots: readonly unknown[]): { repository: string; commits: string[] } {
  const repository = mkdtempSync(join(tmpdir(), 'odds-history-'));
  const git = (...args: string[]): string =>
    execFileSync(
      'git',
      ['-C', repository, '-c', 'user.name=test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args],
      {
        encoding: 'utf8',
      },
    ).trim();
  git('init', '--quiet');
  mkdirSync(join(repository, 'odds'));
  const commits = snapshots.map((data, i) => {
    writeFileSync(join(repository, 'odds', 'nfl.json'), `${JSON.stringify(data, null, 2)}\n`);
    git('add', 'odds/nfl.json');
    git('commit', '--quiet', '-m', `snapshot ${i}`);
    return git('rev-parse', 'HEAD');
  });
  return { repository, commits };
}

const SNAPSHOTS = [[{ id: 'g1', price: -110 }], [{ id: 'g1', price: -120 }], []];
const TIMES = ['2025-11-09T12:00:00Z', '2025-11-09T14:00:00Z', '2025-11-09T16:00:00Z'];

const { repository, commits } = oddsRepository(SNAPSHOTS);
const recording: AssembledRecording = { file: 'nfl.jsonl.gz', check: 'manifest', repository, path: 'odds/nfl.json', origin: 'a test' };

function manifestOf(data: readonly unknown[]): HistoryManifest {
  return {
    file: 'nfl.jsonl.gz',
    canonical_form: 'a test',
    snapshots: data.map((d, i) => ({
      timestamp: TIMES[i] ?? '',
      fetched_at: `${(TIMES[i] ?? '').slice(0, -1)}.250Z`,
      previous_timestamp: TIMES[i - 1] ?? null,
      next_timestamp: TIMES[i + 1] ?? null,
      source_commit: commits[i] ?? '',
      data_sha256: dataSha256(d),
    })),
  };
}

describe('make data: an Odds API recording rebuilt from the git history of its file', () => {
  const clones = gitClones();
  afterAll(() => clones.close());
  const freshDir = (): string => join(mkdtempSync(join(tmpdir(), 'make-data-')), 'recordings');
  const noClones: GitClones = {
    cloneOf: () => {
      throw new Error('cloned although the recording was in place');
    },
    close: () => undefined,
  };

  it('hashes a response as the SHA-256 of its one-line JSON, whatever whitespace it was stored with', () => {
    expect(dataSha256(JSON.parse('[ {\n  "id": "a",\n  "price": -110\n} ]'))).toBe(
      'ded059c55d7e6c9bd180c6cb72d4c2c10cf425ff7742d011633bfb67a504c279',
    );
  });

  it('writes one line per commit, the envelope from the manifest around the data from git', () => {
    const dir = freshDir();
    expect(assembleRecording(recording, manifestOf(SNAPSHOTS), dir, clones)).toEqual({
      file: 'nfl.jsonl.gz',
      outcome: 'assembled',
      path: join(dir, 'nfl.jsonl.gz'),
    });
    expect(gunzipSync(readFileSync(join(dir, 'nfl.jsonl.gz'))).toString('utf8')).toBe(
      [
        `{"timestamp":"2025-11-09T12:00:00Z","fetched_at":"2025-11-09T12:00:00.250Z","previous_timestamp":null,"next_timestamp":"2025-11-09T14:00:00Z","source_commit":"${commits[0]}","data":[{"id":"g1","price":-110}]}`,
        `{"timestamp":"2025-11-09T14:00:00Z","fetched_at":"2025-11-09T14:00:00.250Z","previous_timestamp":"2025-11-09T12:00:00Z","next_timestamp":"2025-11-09T16:00:00Z","source_commit":"${commits[1]}","data":[{"id":"g1","price":-120}]}`,
        `{"timestamp":"2025-11-09T16:00:00Z","fetched_at":"2025-11-09T16:00:00.250Z","previous_timestamp":"2025-11-09T14:00:00Z","next_timestamp":null,"source_commit":"${commits[2]}","data":[]}`,
        '',
      ].join('\n'),
    );
  });

  it('keeps a copy that agrees with the manifest without cloning again', () => {
    const dir = freshDir();
    assembleRecording(recording, manifestOf(SNAPSHOTS), dir, clones);
    expect(assembleRecording(recording, manifestOf(SNAPSHOTS), dir, noClones)).toEqual({
      file: 'nfl.jsonl.gz',
      outcome: 'present',
      path: join(dir, 'nfl.jsonl.gz'),
    });
  });

  it('fails naming the commit whose content does not match its hash, and leaves no file behind', () => {
    const dir = freshDir();
    const tampered = manifestOf([SNAPSHOTS[0], [{ id: 'g1', price: -115 }], SNAPSHOTS[2]]);
    expect(assembleRecording(recording, tampered, dir, clones)).toEqual({
      file: 'nfl.jsonl.gz',
      outcome: 'failed',
      url: repository,
      reason: `commit ${commits[1]}: odds/nfl.json hashes to ${dataSha256(SNAPSHOTS[1])}, the manifest expects ${dataSha256([{ id: 'g1', price: -115 }])}`,
    });
    expect(locateRecording('nfl.jsonl.gz', [dir])).toBeNull();
    expect(locateRecording('nfl.jsonl.gz.part', [dir])).toBeNull();
  });

  it('fails naming the repository when git cannot clone it', () => {
    const gone = join(tmpdir(), 'no-such-repository-here');
    const unreachable = gitClones();
    const outcome = assembleRecording({ ...recording, repository: gone }, manifestOf(SNAPSHOTS), freshDir(), unreachable);
    unreachable.close();
    expect(outcome).toMatchObject({ file: 'nfl.jsonl.gz', outcome: 'failed', url: gone });
    expect(outcome.outcome === 'failed' && outcome.reason.startsWith('git clone failed: ')).toBe(true);
  });
});

describe('a recording checked against a manifest', () => {
  const line: SnapshotLine = {
    timestamp: '2025-11-09T12:00:00Z',
    fetched_at: '2025-11-09T12:00:00.250Z',
    previous_timestamp: null,
    next_timestamp: '2025-11-09T14:00:00Z',
    source_commit: commits[0] ?? '',
    data: SNAPSHOTS[0],
  };

  it('agrees when every envelope field and data hash matches', () => {
    expect(differencesFromManifest([line], manifestOf([SNAPSHOTS[0]]))).toEqual([]);
  });

  it('names the line, its commit and the field that differs', () => {
    expect(differencesFromManifest([{ ...line, fetched_at: '2025-11-09T12:00:01.000Z' }], manifestOf([SNAPSHOTS[0]]))).toEqual([
      `line 1 (commit ${commits[0]}): fetched_at is 2025-11-09T12:00:01.000Z, the manifest says 2025-11-09T12:00:00.250Z`,
    ]);
  });

  it('counts a missing snapshot', () => {
    expect(differencesFromManifest([line], manifestOf(SNAPSHOTS))).toEqual(['1 snapshots, the manifest lists 3']);
  });
});

describe('the committed manifests describe the Odds API recordings', () => {
  for (const { file } of RECORDINGS.filter((r) => r.check === 'manifest')) {
    const path = locateRecording(file);
    it.runIf(path !== null)(`${file}: every snapshot's envelope and data hash`, () => {
      const manifest = readManifest(file);
      expect(manifest.file).toBe(file);
      expect(differencesFromManifest(readSnapshotLines(path ?? ''), manifest)).toEqual([]);
    });
    if (path === null) process.stdout.write(`skipped: the manifest of ${file}: ${missingRecordingNote(file)}\n`);
  }
});
