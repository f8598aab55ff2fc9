/**
 * Betting splits in the pipeline: the processor that joins each book's splits to the canonical
 * event and the book's lines, the sharp-money signals, and the ClickHouse rows.
 */
export { SplitsProcessor } from './processor.js';
export { SIGNAL_RULES, SPLITS_RLM, divergence, reverseLineMovement } from './signals.js';
export type { RlmThresholds } from './signals.js';
export { splitsRows } from './rows.js';
