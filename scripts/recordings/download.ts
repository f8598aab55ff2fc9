import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { DownloadedRecording } from './catalogue.js';

/** SHA-256 of a file, hex, read as a stream (the recordings are megabytes). */
export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

/** What became of one recording in a `make data` run. */
export type RecordingOutcome =
  | { file: string; outcome: 'present'; path: string }
  | { file: string; outcome: 'downloaded'; path: string }
  | { file: string; outcome: 'assembled'; path: string }
  | { file: string; outcome: 'derived'; path: string }
  | { file: string; outcome: 'no_url'; origin: string }
  /** `url` is what could not be had: the download's URL, the repository a recording is assembled from, or a derived one's sources. */
  | { file: string; outcome: 'failed'; url: string; reason: string };

/**
 * Puts one recording into `dir`, checked against its SHA-256: kept when already there and
 * intact, else downloaded beside it and moved in only once its checksum matches, so a broken
 * download never leaves a file the tests would trust.
 */
export async function fetchRecording(
  recording: DownloadedRecording,
  dir: string,
  fetchFn: typeof fetch = fetch,
): Promise<RecordingOutcome> {
  const path = join(dir, recording.file);
  if (existsSync(path) && (await sha256OfFile(path)) === recording.sha256) return { file: recording.file, outcome: 'present', path };
  if (recording.url === null) return { file: recording.file, outcome: 'no_url', origin: recording.origin };
  const url = recording.url;
  const partial = `${path}.part`;
  try {
    mkdirSync(dir, { recursive: true });
    const response = await fetchFn(url);
    if (!response.ok || response.body === null) throw new Error(`HTTP ${response.status}`);
    await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), createWriteStream(partial));
    const sha256 = await sha256OfFile(partial);
    if (sha256 !== recording.sha256) throw new Error(`checksum ${sha256}, expected ${recording.sha256}`);
    renameSync(partial, path);
    return { file: recording.file, outcome: 'downloaded', path };
  } catch (e) {
    rmSync(partial, { force: true });
    const reason = e instanceof Error ? (e.cause instanceof Error ? `${e.message} (${e.cause.message})` : e.message) : String(e);
    return { file: recording.file, outcome: 'failed', url, reason };
  }
}
