export { CLV_GROUPS, closingLinesOfDay, closingLinesOfEvent, clvGroups, evHistory } from './queries.js';
export type { ClosingLineRecord, ClvGroupRecord, EvHistoryRecord } from './queries.js';
