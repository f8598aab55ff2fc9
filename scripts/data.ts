// `make data`: the real recordings into data/recordings/ (git-ignored). A downloaded recording is
// checked against its SHA-256; an Odds API recording is rebuilt from the git history of the
// public repository that holds it, every snapshot checked against its committed manifest; the
// Betfair catalogue is written from the two Betfair recordings and checked against its SHA-256.
// Exits 1 naming the URL or repository when one fails; a recording without any source is
// reported, and the tests look for it beside the checkout instead.
import {
  DOWNLOADED_RECORDINGS_DIR,
  RECORDINGS,
  assembleRecording,
  deriveRecording,
  fetchRecording,
  gitClones,
  readManifest,
} from './recordings/index.js';

let failed = 0;
const clones = gitClones();
try {
  for (const recording of RECORDINGS) {
    const r =
      recording.check === 'manifest'
        ? assembleRecording(recording, readManifest(recording.file), DOWNLOADED_RECORDINGS_DIR, clones)
        : recording.check === 'derived'
          ? await deriveRecording(recording, DOWNLOADED_RECORDINGS_DIR)
          : await fetchRecording(recording, DOWNLOADED_RECORDINGS_DIR);
    if (r.outcome === 'present') console.log(`ok          ${r.path}`);
    else if (r.outcome === 'downloaded') console.log(`downloaded  ${r.path}`);
    else if (r.outcome === 'assembled') console.log(`assembled   ${r.path}`);
    else if (r.outcome === 'derived') console.log(`written     ${r.path}`);
    else if (r.outcome === 'no_url')
      console.log(`no URL      ${r.file}: ${r.origin}; put it in data/recordings/ if you have it, or the tests that need it skip`);
    else {
      failed += 1;
      console.error(`FAILED      ${r.file}: cannot get it from ${r.url}: ${r.reason}`);
    }
  }
} finally {
  clones.close();
}
if (failed > 0) process.exit(1);
