import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { isObject, parseApiTime } from './wire.js';

/**
 * Recordings of The Odds API: JSON Lines (optionally gzip), one snapshot per line in the
 * envelope of the API's historical endpoint:
 * `{timestamp, previous_timestamp, next_timestamp, fetched_at, source_commit, data: [events]}`.
 */

export interface RecordedSnapshot {
  /** The snapshot time (`timestamp`), epoch ms. */
  timestamp: number;
  /** The response body, unmodified (the events array). */
  data: readonly unknown[];
}

/** One line of a recording, or null when it is not a snapshot envelope. */
export function parseRecordingLine(line: string): RecordedSnapshot | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return null;
  }
  if (!isObject(parsed)) return null;
  const timestamp = parseApiTime(parsed['timestamp']);
  const data = parsed['data'];
  if (timestamp === null || !Array.isArray(data)) return null;
  return { timestamp, data };
}

/**
 * The file's lines, streamed (never the whole file in one string). `.gz` files are gunzipped.
 * Breaking out of the loop closes the file.
 */
export async function* readLines(file: string): AsyncGenerator<string> {
  const source = createReadStream(file);
  const input: Readable = file.endsWith('.gz') ? source.pipe(createGunzip()) : source;
  // A gunzip error (truncated or corrupt file) must reach the reader, not crash the process.
  source.on('error', (err) => input.destroy(err));
  const lines = createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of lines) yield line;
  } finally {
    lines.close();
    input.destroy();
    source.destroy();
  }
}
