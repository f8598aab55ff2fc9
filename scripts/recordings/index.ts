export { RECORDINGS } from './catalogue.js';
export type { Recording } from './catalogue.js';
export { DOWNLOADED_RECORDINGS_DIR, locateRecording, missingRecordingNote, recordingDirs } from './locate.js';
export { fetchRecording, sha256OfFile } from './download.js';
export type { RecordingOutcome } from './download.js';
