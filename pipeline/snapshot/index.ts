export { SnapshotProcessor } from './snapshot-processor.js';
