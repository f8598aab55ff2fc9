import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchRecording, locateRecording, recordingDirs, sha256OfFile } from './index.js';
import type { DownloadedRecording } from './index.js';

const CONTENT = '{"op":"mcm"}\n';
const CONTENT_SHA256 = '2746a3a5783975bf72779d6515395a664635f3e532cf96b60a5af320bd976988';

describe('where the tests find a recording', () => {
  const root = mkdtempSync(join(tmpdir(), 'recordings-'));
  const downloaded = join(root, 'data', 'recordings');
  const shared = join(root, 'shared', 'data');
  mkdirSync(downloaded, { recursive: true });
  mkdirSync(shared, { recursive: true });
  writeFileSync(join(downloaded, 'both.jsonl'), 'downloaded');
  writeFileSync(join(shared, 'both.jsonl'), 'shared');
  writeFileSync(join(shared, 'shared-only.jsonl'), 'shared');

  it('prefers the downloaded copy to the one beside the checkout', () => {
    expect(locateRecording('both.jsonl', [downloaded, shared])).toBe(join(downloaded, 'both.jsonl'));
  });

  it('falls back to the folder beside the checkout', () => {
    expect(locateRecording('shared-only.jsonl', [downloaded, shared])).toBe(join(shared, 'shared-only.jsonl'));
  });

  it('answers null when no folder has it, for the test to skip', () => {
    expect(locateRecording('absent.jsonl', [downloaded, shared])).toBeNull();
  });

  it('searches data/recordings, then SHARED_DATA_DIR, then shared/data beside the checkout', () => {
    const dirs = recordingDirs({ SHARED_DATA_DIR: '/elsewhere/data' });
    expect(dirs).toHaveLength(3);
    expect(dirs[0]).toMatch(/[/\\]data[/\\]recordings$/);
    expect(dirs[1]).toBe('/elsewhere/data');
    expect(dirs[2]).toMatch(/[/\\]shared[/\\]data$/);
    expect(recordingDirs({})).toEqual([dirs[0], dirs[2]]);
  });
});

describe('make data: a download checked against its SHA-256', () => {
  const served = new Map<string, string>([['/good', CONTENT]]);
  const server = createServer((req, res) => {
    const body = served.get(req.url ?? '');
    if (body === undefined) res.writeHead(404).end();
    else res.writeHead(200).end(body);
  });
  let base = '';
  beforeAll(async () => {
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  const recording = (url: string | null, sha256 = CONTENT_SHA256): DownloadedRecording => ({
    file: 'r.jsonl',
    check: 'file_sha256',
    sha256,
    url,
    origin: 'a test',
  });
  const freshDir = (): string => join(mkdtempSync(join(tmpdir(), 'make-data-')), 'recordings');

  it('hashes a file as sha256sum does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hash-'));
    writeFileSync(join(dir, 'f'), CONTENT);
    expect(await sha256OfFile(join(dir, 'f'))).toBe(CONTENT_SHA256);
  });

  it('downloads a recording whose checksum matches into the folder', async () => {
    const dir = freshDir();
    const outcome = await fetchRecording(recording(`${base}/good`), dir);
    expect(outcome).toEqual({ file: 'r.jsonl', outcome: 'downloaded', path: join(dir, 'r.jsonl') });
    expect(readFileSync(join(dir, 'r.jsonl'), 'utf8')).toBe(CONTENT);
  });

  it('keeps an intact copy without downloading it again', async () => {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'r.jsonl'), CONTENT);
    expect(await fetchRecording(recording(`${base}/gone`), dir)).toEqual({
      file: 'r.jsonl',
      outcome: 'present',
      path: join(dir, 'r.jsonl'),
    });
  });

  it('refuses a download whose checksum differs, naming the URL, and leaves no file behind', async () => {
    const dir = freshDir();
    const outcome = await fetchRecording(recording(`${base}/good`, '0'.repeat(64)), dir);
    expect(outcome).toEqual({
      file: 'r.jsonl',
      outcome: 'failed',
      url: `${base}/good`,
      reason: `checksum ${CONTENT_SHA256}, expected ${'0'.repeat(64)}`,
    });
    expect(locateRecording('r.jsonl', [dir])).toBeNull();
    expect(locateRecording('r.jsonl.part', [dir])).toBeNull();
  });

  it('fails naming the URL when the server answers an error', async () => {
    const outcome = await fetchRecording(recording(`${base}/missing`), freshDir());
    expect(outcome).toEqual({ file: 'r.jsonl', outcome: 'failed', url: `${base}/missing`, reason: 'HTTP 404' });
  });

  it('reports a recording without a public URL instead of failing', async () => {
    expect(await fetchRecording(recording(null), freshDir())).toEqual({ file: 'r.jsonl', outcome: 'no_url', origin: 'a test' });
  });
});
