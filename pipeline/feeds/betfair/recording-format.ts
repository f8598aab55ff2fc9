import { readLines } from '../read-lines.js';

/**
 * Whether a recording holds Exchange Stream messages (each line an object with `op`) rather than
 * The Odds API's snapshot envelopes: `FEED=replay` picks the replay by the file's first line.
 */
export async function isStreamRecording(file: string): Promise<boolean> {
  for await (const line of readLines(file)) {
    if (line.trim() === '') continue;
    try {
      const first: unknown = JSON.parse(line);
      return typeof first === 'object' && first !== null && typeof (first as Record<string, unknown>)['op'] === 'string';
    } catch {
      return false;
    }
  }
  return false;
}
