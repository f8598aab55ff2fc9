import type { GameState } from '../../schemas/index.js';
import type { Catalog } from '../views/catalog.js';
import { isoTime, nullableString } from './common.js';
import { teamName } from './refs.js';

const side = { type: ['string', 'null'], enum: ['home', 'away', null] } as const;
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
    possession: side,
    server: { ...side, description: 'Tennis: who serves.' },
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
    updated_at: { type: 'string', format: 'date-time' },
  },
} as const;

export function presentGameState(catalog: Catalog, s: GameState): Record<string, unknown> {
  const out: Record<string, unknown> = {
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
    possession: s.possession,
    server: s.server,
    last_play: s.lastPlay,
    updated_at: isoTime(s.updatedAt),
  };
  const x = s.extras;
  const pairs: [string, [number, number] | undefined][] = [
    ['corners', x.corners],
    ['yellow_cards', x.yellowCards],
    ['red_cards', x.redCards],
    ['fouls', x.fouls],
    ['sets', x.sets],
  ];
  for (const [name, v] of pairs) {
    if (!v) continue;
    out[`${name}_home`] = v[0];
    out[`${name}_away`] = v[1];
  }
  if (x.powerPlay !== undefined) out['power_play'] = x.powerPlay;
  if (x.outs !== undefined) out['outs'] = x.outs;
  return out;
}

/** `data` of /gamestate: sport -> event id -> state (null-prototype maps: ids come from feeds). */
export function gameStateMap(catalog: Catalog, states: readonly GameState[]): Record<string, Record<string, Record<string, unknown>>> {
  const data: Record<string, Record<string, Record<string, unknown>>> = Object.create(null) as Record<
    string,
    Record<string, Record<string, unknown>>
  >;
  for (const s of states) {
    const bucket = (data[s.sport] ??= Object.create(null) as Record<string, Record<string, unknown>>);
    bucket[s.eventId] = presentGameState(catalog, s);
  }
  return data;
}
