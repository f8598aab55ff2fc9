import type { TeamDef } from '../types.js';

/**
 * Teams (and, for individual sports, players) by league. numericalId is frozen, dense from 1
 * and never reused: append new entries at the end.
 */
export const TEAMS: readonly TeamDef[] = [
  { id: 'los-angeles-lakers', numericalId: 1, name: 'Los Angeles Lakers', abbreviation: 'LAL', sport: 'basketball', leagues: ['nba'], aliases: ['LA Lakers', 'Lakers', 'LAL'] },
  { id: 'boston-celtics', numericalId: 2, name: 'Boston Celtics', abbreviation: 'BOS', sport: 'basketball', leagues: ['nba'], aliases: ['Celtics', 'BOS'] },
];
