import type { TeamDef } from '../types.js';
import { BOXING } from './boxing.js';
import { CRICKET } from './cricket.js';
import { CURLING } from './curling.js';
import { teamsOf } from './define.js';
import type { TeamSeed } from './define.js';
import { PDC } from './darts.js';
import { CS2 } from './esports.js';
import { F1 } from './f1.js';
import { FIFA_WORLD_CUP } from './fifa-world-cup.js';
import { PGA } from './golf.js';
import { PLL } from './lacrosse.js';
import { MLB } from './mlb.js';
import { MLS } from './mls.js';
import { NBA } from './nba.js';
import { NCAAB } from './ncaab.js';
import { NCAAF } from './ncaaf.js';
import { NFL } from './nfl.js';
import { NHL } from './nhl.js';
import { NRL, PREMIERSHIP_RUGBY } from './rugby.js';
import { SNOOKER } from './snooker.js';
import { BUNDESLIGA, EPL, LA_LIGA, SERIE_A } from './soccer-europe.js';
import { TABLE_TENNIS } from './table-tennis.js';
import { ATP, WTA } from './tennis.js';
import { UFC } from './ufc.js';
import { WNBA } from './wnba.js';

/**
 * Teams added after the first catalog: THE ONLY PLACE TO ADD A TEAM. Append new entries at the
 * end of this list (build them with `teamsOf` / `playersOf` from `./define.js`), whatever their
 * league; a promoted club, an expansion team or a new player goes here too.
 */
const APPENDED: readonly TeamSeed[] = [
  // Played the Netherlands in the recorded Betfair cricket market (../shared/data).
  teamsOf('cricket', 'test_cricket', 'cricket-')('Papua New Guinea', 'PNG', []),
];

/**
 * The catalog in its frozen order: one list per league or sport, then APPENDED last. A team's
 * numericalId is its position in this concatenation (1-based), so it is dense from 1 and unique
 * by construction, and stays stable as long as entries are only ever appended to APPENDED.
 * Never insert into, reorder or remove from the lists below (that renumbers every later team):
 * a relegated club or a retired player stays where it is; a rename changes its `name` and keeps
 * its `id` (pass `{ id }` to the builder). `catalog.test.ts` pins the ids of the first catalog.
 */
const ORDER: readonly (readonly TeamSeed[])[] = [
  NBA,
  NCAAB,
  WNBA,
  NFL,
  NCAAF,
  NHL,
  MLB,
  EPL,
  LA_LIGA,
  SERIE_A,
  BUNDESLIGA,
  MLS,
  FIFA_WORLD_CUP,
  ATP,
  WTA,
  UFC,
  PGA,
  BOXING,
  CRICKET,
  PREMIERSHIP_RUGBY,
  NRL,
  PLL,
  F1,
  CURLING,
  PDC,
  SNOOKER,
  TABLE_TENNIS,
  CS2,
  APPENDED,
];

/** Teams (and, for individual sports, players) of every league; see ORDER for numbering. */
export const TEAMS: readonly TeamDef[] = ORDER.flat().map((seed, index) => ({ ...seed, numericalId: index + 1 }));
