/** Closing lines and closing-line value: what a +EV feed is judged by. */
export { ClosingProcessor, settle } from './processor.js';
export type { ClosingInput, ClosingOutput } from './processor.js';
export { closingRow, gameStateRow, gradeRow, storedClosingLines } from './rows.js';
