export { pipelineStages } from './table.js';
export { repriceOpportunities } from './opportunities.js';
export { inWriteOrder } from './changelog-reads.js';
export type { PipelineProcessors } from './table.js';
export { LeagueOwnership } from './league-ownership.js';
export { LowestAccountRate } from './lowest-rate.js';
export { SINK_TABLES, openTableSinks, releaseTableSinks, sinkCounters } from './table-sinks.js';
export type { SinkTable, TableSinks } from './table-sinks.js';
export type { SinkBatching, StageContext, StageSpec, StageState } from './stage.js';
