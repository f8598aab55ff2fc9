export { TableSink } from './table-sink.js';
export type { SinkCounters, TableSinkOptions } from './table-sink.js';
export { clickHouseTime, eventRow, latestRow, opportunityRow, tickRow } from './rows.js';
