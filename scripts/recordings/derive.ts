import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DerivedRecording } from './catalogue.js';
import type { RecordingOutcome } from './download.js';
import { sha256OfFile } from './download.js';

/**
 * Writes a derived recording into `dir` from its sources there, kept only when its SHA-256 is
 * the recorded one: a source that changed, or a writer that drifted, fails instead of leaving a
 * file the tests would trust.
 */
export async function deriveRecording(recording: DerivedRecording, dir: string): Promise<RecordingOutcome> {
  const path = join(dir, recording.file);
  if (existsSync(path) && (await sha256OfFile(path)) === recording.sha256) return { file: recording.file, outcome: 'present', path };
  const from = `the recordings ${recording.sources.join(', ')}`;
  try {
    const contents = recording.sources.map((source) => {
      const sourcePath = join(dir, source);
      if (!existsSync(sourcePath)) throw new Error(`${source} is not in ${dir}`);
      return readFileSync(sourcePath, 'utf8');
    });
    const text = recording.write(contents);
    const sha256 = createHash('sha256').update(text).digest('hex');
    if (sha256 !== recording.sha256) throw new Error(`checksum ${sha256}, expected ${recording.sha256}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(`${path}.part`, text);
    renameSync(`${path}.part`, path);
    return { file: recording.file, outcome: 'derived', path };
  } catch (e) {
    return { file: recording.file, outcome: 'failed', url: from, reason: e instanceof Error ? e.message : String(e) };
  }
}
