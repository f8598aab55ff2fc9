/** Closing lines and closing-line value: what a +EV feed is judged by. */
export { ClosingProcessor, settle } from './processor.js';
export type { ClosingInput, ClosingOutput } from './processor.js';
export {
  closingLinesOfEvents,
  closingRow,
  endedGamesOf,
  entryRow,
  gameStateRow,
  gradeRow,
  storedClosingLines,
  storedEntries,
} from './rows.js';
export type { EndedGame } from './rows.js';
