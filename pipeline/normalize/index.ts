export { Normalizer } from './normalizer.js';
export type { GameStateResult, NormalizeResult, NormalizerOptions, UnmatchedReason } from './normalizer.js';
export { TeamDirectory } from './team-directory.js';
