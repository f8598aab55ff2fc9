// `make data`: the real recordings into data/recordings/ (git-ignored), each checked against its
// SHA-256. Exits 1 naming the URL when a download fails; a recording without a public URL is
// reported, and the tests look for it beside the checkout instead.
import { DOWNLOADED_RECORDINGS_DIR, RECORDINGS, fetchRecording } from './recordings/index.js';

let failed = 0;
for (const recording of RECORDINGS) {
  const r = await fetchRecording(recording, DOWNLOADED_RECORDINGS_DIR);
  if (r.outcome === 'present') console.log(`ok          ${r.path}`);
  else if (r.outcome === 'downloaded') console.log(`downloaded  ${r.path}`);
  else if (r.outcome === 'no_url')
    console.log(`no URL      ${r.file}: ${r.origin}; put it in data/recordings/ if you have it, or the tests that need it skip`);
  else {
    failed += 1;
    console.error(`FAILED      ${r.file}: cannot download ${r.url}: ${r.reason}`);
  }
}
if (failed > 0) process.exit(1);
