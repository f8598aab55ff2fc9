import { readLines } from '../read-lines.js';
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

/** Every snapshot of a recording file (plain or gzip), in order; lines that are not one are skipped. */
export async function* recordedSnapshots(file: string): AsyncGenerator<RecordedSnapshot> {
  for await (const line of readLines(file)) {
    const snapshot = parseRecordingLine(line);
    if (snapshot !== null) yield snapshot;
  }
}
