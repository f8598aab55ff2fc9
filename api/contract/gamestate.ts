import type { GameState } from '../../schemas/index.js';
import type { Catalog } from '../views/index.js';
import type { LiveGameState } from '../views/index.js';
import { isoTime, nullableString, whenKnown } from './common.js';
import { teamName } from './refs.js';
import type { ReplyOf } from './route-types.js';

const side = { type: ['string', 'null'], enum: ['home', 'away', null] } as const;
/** A side that is left out when unknown (the reference types it as a plain string). */
const knownSide = { type: 'string', enum: ['home', 'away'] } as const;
const pair = { type: 'integer' } as const;

/** One live game's state (COMPAT §8 GameState); sport-specific fields only where the sport has them. */
export const gameStateSchema = {
  type: 'object',
  required: ['event_id', 'home_team', 'away_team', 'sport', 'league', 'home_score', 'away_score', 'is_live', 'primary_book', 'book_count'],
  properties: {
    event_id: { type: 'string' },
    home_team: { type: 'string' },
    away_team: { type: 'string' },
    sport: { type: 'string' },
    league: { type: 'string' },
    status: { type: 'string', enum: ['live'] },
    home_score: { type: 'integer' },
    away_score: { type: 'integer' },
    is_live: { type: 'boolean', description: 'Always true: finished games leave the list.' },
    primary_book: { type: 'string', description: 'The source whose report this is.' },
    book_count: { type: 'integer' },
    game_period: { ...nullableString, description: 'Q3, 2H, P2, S2, T5 (top of the 5th), ...' },
    game_clock: {
      ...nullableString,
      description: 'mm:ss; counts down within the period, up through the match in soccer; null where the sport has no clock.',
    },
    possession: { ...knownSide, description: 'Who has the ball; absent when the feed does not say.' },
    server: { ...knownSide, description: 'Tennis: who serves; absent when the feed does not say.' },
    last_play: nullableString,
    corners_home: pair,
    corners_away: pair,
    yellow_cards_home: pair,
    yellow_cards_away: pair,
    red_cards_home: pair,
    red_cards_away: pair,
    fouls_home: pair,
    fouls_away: pair,
    sets_home: pair,
    sets_away: pair,
    power_play: side,
    outs: pair,
    wickets_home: { ...pair, description: 'Cricket: wickets the home side has lost batting.' },
    wickets_away: pair,
    overs_home: { type: 'string', description: 'Cricket: overs the home side has batted, as shown (19.4 is 19 overs and 4 balls).' },
    overs_away: { type: 'string' },
    updated_at: { type: 'string', format: 'date-time' },
  },
} as const;

/** `data` of /gamestate: sport -> event id -> state. */
export type GameStateMap = ReplyOf<'/api/v1/gamestate'>['data'];
export type PublicGameState = GameStateMap[string][string];
/** The fields of a game's last state that a stream's `gamestate:removed` carries. */
export type EndedGameState = Pick<PublicGameState, 'event_id' | 'sport' | 'league' | 'home_score' | 'away_score' | 'updated_at'> & {
  status: GameState['status'];
  is_live: false;
};

export function presentGameState(catalog: Catalog, s: LiveGameState): PublicGameState {
  const x = s.extras;
  return {
    event_id: s.eventId,
    home_team: teamName(catalog, s.homeTeamId),
    away_team: teamName(catalog, s.awayTeamId),
    sport: s.sport,
    league: s.league,
    status: s.status,
    home_score: s.homeScore,
    away_score: s.awayScore,
    is_live: true,
    primary_book: s.primaryBook,
    book_count: s.bookCount,
    game_period: s.period,
    game_clock: s.clock,
    ...whenKnown('possession', s.possession),
    ...whenKnown('server', s.server),
    last_play: s.lastPlay,
    updated_at: isoTime(s.updatedAt),
    // Sport-specific fields only where the feed reports them, in this order (streams send the object as built).
    ...(x.corners && { corners_home: x.corners[0], corners_away: x.corners[1] }),
    ...(x.yellowCards && { yellow_cards_home: x.yellowCards[0], yellow_cards_away: x.yellowCards[1] }),
    ...(x.redCards && { red_cards_home: x.redCards[0], red_cards_away: x.redCards[1] }),
    ...(x.fouls && { fouls_home: x.fouls[0], fouls_away: x.fouls[1] }),
    ...(x.sets && { sets_home: x.sets[0], sets_away: x.sets[1] }),
    ...(x.powerPlay !== undefined && { power_play: x.powerPlay }),
    ...(x.outs !== undefined && { outs: x.outs }),
    ...(x.wickets && { wickets_home: x.wickets[0], wickets_away: x.wickets[1] }),
    ...(x.overs && { overs_home: x.overs[0], overs_away: x.overs[1] }),
  };
}

/** A game that left the live list (final, postponed, cancelled): its last state without the live-only fields (`gamestate:removed`). */
export function presentEndedGameState(s: GameState): EndedGameState {
  return {
    event_id: s.eventId,
    sport: s.sport,
    league: s.league,
    status: s.status,
    home_score: s.homeScore,
    away_score: s.awayScore,
    is_live: false,
    updated_at: isoTime(s.updatedAt),
  };
}

/** `data` of /gamestate: sport -> event id -> state (null-prototype maps: ids come from feeds). */
export function gameStateMap(catalog: Catalog, states: readonly LiveGameState[]): GameStateMap {
  const data: GameStateMap = Object.create(null) as GameStateMap;
  for (const s of states) {
    const bucket = (data[s.sport] ??= Object.create(null) as GameStateMap[string]);
    bucket[s.eventId] = presentGameState(catalog, s);
  }
  return data;
}
