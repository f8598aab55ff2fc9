/**
 * Deep-link URL templates per sportsbook: the configuration `GET /deeplink/{id}` fills in. A
 * book missing here has no deep links (`deep_link: null`), never a guessed URL. Operators
 * merge their own table over this one with `DEEPLINK_TEMPLATES=file.json` (see the README).
 *
 * Placeholders, filled URL-encoded: `{event_id}` (the book's own event id), `{selection_id}`
 * (the book's own selection id), `{market}` (our market id), `{state}` (US state code, from the
 * request's `state`, default `pa`), `{sport}`, `{league}`, `{game_id}` (our event id). A level
 * whose placeholders cannot all be filled is skipped for the next one down: selection, market,
 * event, homepage.
 *
 * The entries below are US books the simulator and The Odds API feed carry, shaped like each
 * book's public links. Simulated event and selection ids are synthetic, so simulated links
 * open the right site and page type, not a real game.
 */
export interface BookLinkTemplates {
  /** Always usable: no placeholders but `{state}`. */
  homepage: string;
  event?: string;
  market?: string;
  selection?: string;
  /** States the book's URLs serve; a request for another state gets the homepage. Absent = any. */
  states?: readonly string[];
}

export const DEEP_LINK_PLACEHOLDERS = ['event_id', 'selection_id', 'market', 'state', 'sport', 'league', 'game_id'] as const;
export type DeepLinkPlaceholder = (typeof DEEP_LINK_PLACEHOLDERS)[number];

export const DEEP_LINK_TEMPLATES: Readonly<Record<string, BookLinkTemplates>> = {
  draftkings: {
    homepage: 'https://sportsbook.draftkings.com',
    event: 'https://sportsbook.draftkings.com/event/{event_id}',
    selection: 'https://sportsbook.draftkings.com/event/{event_id}?outcomes={selection_id}',
  },
  fanduel: {
    homepage: 'https://sportsbook.fanduel.com',
    event: 'https://{state}.sportsbook.fanduel.com/event/{event_id}',
    selection: 'https://{state}.sportsbook.fanduel.com/addToBetslip?selectionId={selection_id}',
  },
  betmgm: {
    homepage: 'https://sports.betmgm.com',
    event: 'https://sports.{state}.betmgm.com/en/sports/events/{event_id}',
    selection: 'https://sports.{state}.betmgm.com/en/sports/events/{event_id}?options={selection_id}',
  },
  caesars: {
    homepage: 'https://sportsbook.caesars.com',
    event: 'https://sportsbook.caesars.com/us/{state}/bet/event/{event_id}',
    selection: 'https://sportsbook.caesars.com/us/{state}/bet/betslip?selectionIds={selection_id}',
  },
  betrivers: {
    homepage: 'https://www.betrivers.com',
    event: 'https://{state}.betrivers.com/?page=sportsbook#event/{event_id}',
  },
  espnbet: {
    homepage: 'https://espnbet.com',
    event: 'https://espnbet.com/sport/{sport}/organization/us/competition/{league}/event/{event_id}',
  },
  fanatics: {
    homepage: 'https://sportsbook.fanatics.com',
    event: 'https://sportsbook.fanatics.com/event/{event_id}',
    market: 'https://sportsbook.fanatics.com/event/{event_id}?market={market}',
  },
  pinnacle: {
    homepage: 'https://www.pinnacle.com',
    event: 'https://www.pinnacle.com/en/{sport}/{league}/matchup/{event_id}/',
  },
};
