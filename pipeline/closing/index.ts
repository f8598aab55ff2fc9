/** Closing lines and closing-line value: what a +EV feed is judged by. */
export { ClosingProcessor, settle } from './processor.js';
export type { ClosingInput, ClosingOutput } from './processor.js';
export { closingRow, entryRow, gameStateRow, gradeRow, storedClosingLines, storedEntries } from './rows.js';
