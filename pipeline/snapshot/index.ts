export { SnapshotProcessor } from './snapshot-processor.js';
export { rowId } from './snapshot-processor.js';
