export { Normalizer } from './normalizer.js';
export type { GameStateResult, NormalizeResult, NormalizeSplitsResult, NormalizerOptions, UnmatchedReason } from './normalizer.js';
export { TeamDirectory } from './team-directory.js';
