import { DEVIG_METHOD_CHOICES } from './api-types.generated.js';
import type { paths } from './api-types.generated.js';

/**
 * The answers the screen reads, as the API's OpenAPI document types them (api-types.generated.ts,
 * `make api-types`): a route whose schema changes changes these, and the screen's typecheck
 * says where it no longer fits.
 */

/** The JSON body of a 200 answer to GET `P`. */
type OkBody<P extends keyof paths> = paths[P] extends { get: { responses: { 200: { content: { 'application/json': infer B } } } } }
  ? B
  : never;

/** What the envelope carries under `data` for GET `P`. */
export type DataOf<P extends keyof paths> = OkBody<P> extends { data: infer D } ? D : never;

/** One row of a list answer to GET `P` (a `format=csv` answer's text aside). */
export type RowOf<P extends keyof paths> = Extract<DataOf<P>, readonly unknown[]>[number];

export type SessionInfo = DataOf<'/api/v1/session'>;
export type Feature = SessionInfo['features']['ev'];

/** One entry of a reference list (/sports, /leagues, /markets): the screen reads ids. */
export type ReferenceItem = RowOf<'/api/v1/sports' | '/api/v1/leagues' | '/api/v1/markets'>;

/**
 * An odds row as /odds presents it (and the odds stream sends it). Its schema makes every field
 * optional, because `fields=` can leave any out; the screen never asks for fewer, so the fields it
 * keys and prices by are there.
 */
export type OddsRow = RowOf<'/api/v1/odds'> &
  Required<
    Pick<
      RowOf<'/api/v1/odds'>,
      'id' | 'event_id' | 'sportsbook' | 'market' | 'selection' | 'odds_american' | 'odds_decimal' | 'probability'
    >
  >;

export type HistoryPoint = RowOf<'/api/v1/events/{eventId}/history'>;
export type SplitsRow = RowOf<'/api/v1/splits'>;
/** Sport, then event id, then the game's state. */
export type GameStates = DataOf<'/api/v1/gamestate'>;
export type GameStateRow = GameStates[string][string];

/** Each opportunity list's rows, by the screen's list name. */
export interface OpportunityRows {
  ev: RowOf<'/api/v1/opportunities/ev'>;
  arbitrage: RowOf<'/api/v1/opportunities/arbitrage'>;
  middles: RowOf<'/api/v1/opportunities/middles'>;
  low_hold: RowOf<'/api/v1/opportunities/low_hold'>;
}
export type OpportunityRow = OpportunityRows[keyof OpportunityRows];

export { DEVIG_METHOD_CHOICES };
export type DevigMethod = (typeof DEVIG_METHOD_CHOICES)[number];

/** One bet of the ledger as /bets presents it, graded and settled as far as the event has gone. */
export type BetRow = RowOf<'/api/v1/bets'>;
export type BetSummary = DataOf<'/api/v1/bets/summary'>;
