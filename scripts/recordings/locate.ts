import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Where `make data` puts the recordings: inside the git-ignored `data/`. */
export const DOWNLOADED_RECORDINGS_DIR = join(ROOT, 'data', 'recordings');

/**
 * The folders searched for a recording, first match wins: what `make data` downloaded, then
 * `SHARED_DATA_DIR` (a checkout that does not sit beside the shared folder), then a
 * `shared/data` beside the checkout, where CI keeps them.
 */
export function recordingDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  const shared = env['SHARED_DATA_DIR'];
  return [DOWNLOADED_RECORDINGS_DIR, ...(shared ? [resolve(shared)] : []), resolve(ROOT, '..', 'shared', 'data')];
}

/** The path of a recording in the first folder that has it, or null when none has. */
export function locateRecording(file: string, dirs: readonly string[] = recordingDirs()): string | null {
  for (const dir of dirs) {
    const path = join(dir, file);
    if (existsSync(path)) return path;
  }
  return null;
}

/** Why a test skips for want of a recording, in one line naming how to get it. */
export function missingRecordingNote(file: string, dirs: readonly string[] = recordingDirs()): string {
  return `${file} is in none of ${dirs.join(', ')}: \`make data\` downloads or rebuilds the recordings that have a public source`;
}
