import type { SportDef } from './types.js';

/** The spec's sport ids. numericalId is frozen: only ever append. */
export const SPORTS: readonly SportDef[] = [
  { id: 'basketball', numericalId: 1, name: 'Basketball' },
  { id: 'football', numericalId: 2, name: 'American Football' },
  { id: 'hockey', numericalId: 3, name: 'Ice Hockey' },
  { id: 'baseball', numericalId: 4, name: 'Baseball' },
  { id: 'soccer', numericalId: 5, name: 'Soccer' },
  { id: 'tennis', numericalId: 6, name: 'Tennis' },
  { id: 'mma', numericalId: 7, name: 'Mixed Martial Arts' },
  { id: 'golf', numericalId: 8, name: 'Golf' },
  { id: 'boxing', numericalId: 9, name: 'Boxing' },
  { id: 'cricket', numericalId: 10, name: 'Cricket' },
  { id: 'rugby', numericalId: 11, name: 'Rugby Union' },
  { id: 'rugby_league', numericalId: 12, name: 'Rugby League' },
  { id: 'lacrosse', numericalId: 13, name: 'Lacrosse' },
  { id: 'motorsports', numericalId: 14, name: 'Motorsports' },
  { id: 'curling', numericalId: 15, name: 'Curling' },
  { id: 'darts', numericalId: 16, name: 'Darts' },
  { id: 'snooker', numericalId: 17, name: 'Snooker' },
  { id: 'table_tennis', numericalId: 18, name: 'Table Tennis' },
  { id: 'esports', numericalId: 19, name: 'Esports' },
];
