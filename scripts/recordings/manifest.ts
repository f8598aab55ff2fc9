import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

/**
 * One snapshot of an Odds API recording without its odds: the envelope the historical endpoint
 * wraps around each response, and the SHA-256 of the response itself.
 */
export interface ManifestEntry {
  timestamp: string;
  fetched_at: string;
  previous_timestamp: string | null;
  next_timestamp: string | null;
  source_commit: string;
  data_sha256: string;
}

/** What `make data` needs to rebuild a recording from git history and to prove it did it right. */
export interface HistoryManifest {
  file: string;
  /** How `data_sha256` is computed, in words, so that the manifest explains itself. */
  canonical_form: string;
  snapshots: ManifestEntry[];
}

/** A recording line: the manifest's envelope with the response in `data`. */
export type SnapshotLine = Omit<ManifestEntry, 'data_sha256'> & { data: unknown };

export const CANONICAL_FORM = 'SHA-256 of JSON.stringify(JSON.parse(data)): no whitespace, keys in their recorded order';

const MANIFESTS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'manifests');

/** Where a recording's committed manifest lives: beside this module, named after the recording. */
export function manifestPath(file: string): string {
  return join(MANIFESTS_DIR, `${file.replace(/\.jsonl(\.gz)?$/, '')}.json`);
}

export function readManifest(file: string): HistoryManifest {
  return JSON.parse(readFileSync(manifestPath(file), 'utf8')) as HistoryManifest;
}

/**
 * The hash that identifies a response whatever its whitespace: the git history holds the
 * responses pretty-printed, the recordings hold them on one line, and both parse to the same value.
 */
export function dataSha256(data: unknown): string {
  return createHash('sha256').update(JSON.stringify(data)).digest('hex');
}

export function manifestEntryOf(line: SnapshotLine): ManifestEntry {
  return {
    timestamp: line.timestamp,
    fetched_at: line.fetched_at,
    previous_timestamp: line.previous_timestamp,
    next_timestamp: line.next_timestamp,
    source_commit: line.source_commit,
    data_sha256: dataSha256(line.data),
  };
}

/** The lines of a recording (gzip when its name ends in `.gz`), parsed, in order. */
export function readSnapshotLines(path: string): SnapshotLine[] {
  const raw = readFileSync(path);
  const text = (path.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as SnapshotLine);
}

/** Every way `lines` differ from the manifest, one sentence each; empty when they agree. */
export function differencesFromManifest(lines: readonly SnapshotLine[], manifest: HistoryManifest): string[] {
  const differences: string[] = [];
  if (lines.length !== manifest.snapshots.length)
    differences.push(`${lines.length} snapshots, the manifest lists ${manifest.snapshots.length}`);
  lines.forEach((line, i) => {
    const expected = manifest.snapshots[i];
    if (expected === undefined) return;
    const actual = manifestEntryOf(line);
    for (const key of Object.keys(expected) as (keyof ManifestEntry)[]) {
      if (actual[key] !== expected[key])
        differences.push(`line ${i + 1} (commit ${expected.source_commit}): ${key} is ${actual[key]}, the manifest says ${expected[key]}`);
    }
  });
  return differences;
}
