// Writes the committed manifest of an Odds API recording (envelopes and data hashes, no odds):
//   npx tsx scripts/recordings/history-manifest.ts <recording.jsonl.gz>
// into scripts/recordings/manifests/, from which `make data` rebuilds the recording out of git.
import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { CANONICAL_FORM, manifestEntryOf, manifestPath, readSnapshotLines } from './manifest.js';
import type { HistoryManifest } from './manifest.js';

const source = process.argv[2];
if (source === undefined) {
  console.error('usage: npx tsx scripts/recordings/history-manifest.ts <recording.jsonl.gz>');
  process.exit(2);
}
const file = basename(source);
const manifest: HistoryManifest = {
  file,
  canonical_form: CANONICAL_FORM,
  snapshots: readSnapshotLines(source).map(manifestEntryOf),
};
const out = manifestPath(file);
writeFileSync(out, `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`${out}: ${manifest.snapshots.length} snapshots`);
