import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { AssembledRecording } from './catalogue.js';
import type { RecordingOutcome } from './download.js';
import { runGit } from './git-clones.js';
import type { GitClones } from './git-clones.js';
import { dataSha256, differencesFromManifest, readSnapshotLines } from './manifest.js';
import type { HistoryManifest, ManifestEntry, SnapshotLine } from './manifest.js';

/** Whether the file already in place is the recording the manifest describes, snapshot by snapshot. */
function agreesWithManifest(path: string, manifest: HistoryManifest): boolean {
  if (!existsSync(path)) return false;
  try {
    return differencesFromManifest(readSnapshotLines(path), manifest).length === 0;
  } catch {
    return false;
  }
}

/** One snapshot out of git, checked against its manifest entry; throws naming the commit. */
function snapshotFromGit(gitDir: string, path: string, entry: ManifestEntry): SnapshotLine {
  const { data_sha256: expected, ...envelope } = entry;
  const shown = runGit(['--git-dir', gitDir, 'show', `${entry.source_commit}:${path}`]);
  if (!shown.ok) throw new Error(`commit ${entry.source_commit}: ${shown.reason}`);
  let data: unknown;
  try {
    data = JSON.parse(shown.stdout);
  } catch {
    throw new Error(`commit ${entry.source_commit}: ${path} is not JSON`);
  }
  const actual = dataSha256(data);
  if (actual !== expected) throw new Error(`commit ${entry.source_commit}: ${path} hashes to ${actual}, the manifest expects ${expected}`);
  return { ...envelope, data };
}

/**
 * Rebuilds a recording from the history of one file in a git repository: each manifest entry's
 * commit gives that snapshot's data, checked against the entry's hash and wrapped in its
 * envelope. Written beside the target and moved in only when every snapshot checked out, so a
 * failed run never leaves a file the tests would trust.
 */
export function assembleRecording(
  recording: AssembledRecording,
  manifest: HistoryManifest,
  dir: string,
  clones: GitClones,
): RecordingOutcome {
  const target = join(dir, recording.file);
  if (agreesWithManifest(target, manifest)) return { file: recording.file, outcome: 'present', path: target };
  const partial = `${target}.part`;
  try {
    const gitDir = clones.cloneOf(recording.repository);
    const lines = manifest.snapshots.map((entry) => JSON.stringify(snapshotFromGit(gitDir, recording.path, entry)));
    mkdirSync(dir, { recursive: true });
    writeFileSync(partial, gzipSync(`${lines.join('\n')}\n`));
    renameSync(partial, target);
    return { file: recording.file, outcome: 'assembled', path: target };
  } catch (e) {
    rmSync(partial, { force: true });
    return { file: recording.file, outcome: 'failed', url: recording.repository, reason: e instanceof Error ? e.message : String(e) };
  }
}
