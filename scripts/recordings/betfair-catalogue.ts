/**
 * The Betfair replay needs runner and event names, which the Exchange Stream never sends: live,
 * they come from the Betting API's `listMarketCatalogue`. For a recording they are written from the
 * recordings' own facts instead: the market definition of the price stream (ids, times, flags) and
 * the team names the score stream gives per selection id.
 */

/** Event type names by Betfair's event type id, for the sports the recordings cover. */
const EVENT_TYPES = new Map<string, string>([
  ['1', 'Soccer'],
  ['2', 'Tennis'],
  ['4', 'Cricket'],
  ['7522', 'Basketball'],
]);

/** Market names by market type, as the Betting API spells them. */
const MARKET_NAMES = new Map<string, string>([['MATCH_ODDS', 'Match Odds']]);

interface StreamRunner {
  id: number;
  sortPriority: number;
  hc?: number;
}

interface StreamMarketDefinition {
  bspMarket: boolean;
  turnInPlayEnabled: boolean;
  persistenceEnabled: boolean;
  marketBaseRate: number;
  eventId: string;
  eventTypeId: string;
  bettingType: string;
  marketType: string;
  marketTime: string;
  suspendTime: string;
  discountAllowed: boolean;
  countryCode: string;
  timezone: string;
  openDate: string;
  runners: StreamRunner[];
}

interface Team {
  name: string;
  selectionId: number;
}

/** A float kept as written in the catalogue (`5.0`): JSON.stringify would print `5`. */
const FLOAT = (n: number): string => `\u0000float:${Number.isInteger(n) ? n.toFixed(1) : String(n)}\u0000`;

function firstMarketDefinition(stream: string, marketId: string): StreamMarketDefinition {
  for (const line of stream.split('\n')) {
    if (!line.includes('"marketDefinition"')) continue;
    const message = JSON.parse(line) as { mc?: { id: string; marketDefinition?: StreamMarketDefinition }[] };
    const change = message.mc?.find((m) => m.id === marketId && m.marketDefinition);
    if (change?.marketDefinition) return change.marketDefinition;
  }
  throw new Error(`the price stream has no market definition for ${marketId}`);
}

function teamsOf(scores: string, marketId: string): { home: Team; away: Team } {
  for (const line of scores.split('\n')) {
    if (!line.includes('"homeTeam"')) continue;
    const message = JSON.parse(line) as { cc?: { marketId: string; homeTeam?: Team; awayTeam?: Team }[] };
    const change = message.cc?.find((c) => c.marketId === marketId && c.homeTeam && c.awayTeam);
    if (change?.homeTeam && change.awayTeam) return { home: change.homeTeam, away: change.awayTeam };
  }
  throw new Error(`the score stream names no teams for ${marketId}`);
}

/**
 * The `listMarketCatalogue` answer for one market, as the file the replay reads: one-space
 * indentation and floats with their decimal point, the layout its recorded checksum was taken on.
 */
export function betfairCatalogue(marketId: string, priceStream: string, scoreStream: string): string {
  const definition = firstMarketDefinition(priceStream, marketId);
  const { home, away } = teamsOf(scoreStream, marketId);
  const names = new Map([
    [home.selectionId, home.name],
    [away.selectionId, away.name],
  ]);
  const answer = [
    {
      marketId,
      marketName: MARKET_NAMES.get(definition.marketType) ?? definition.marketType,
      marketStartTime: definition.marketTime,
      description: {
        persistenceEnabled: definition.persistenceEnabled,
        bspMarket: definition.bspMarket,
        marketTime: definition.marketTime,
        suspendTime: definition.suspendTime,
        bettingType: definition.bettingType,
        turnInPlayEnabled: definition.turnInPlayEnabled,
        marketType: definition.marketType,
        marketBaseRate: FLOAT(definition.marketBaseRate),
        discountAllowed: definition.discountAllowed,
      },
      runners: definition.runners.map((r) => {
        const runnerName = names.get(r.id);
        if (runnerName === undefined) throw new Error(`the score stream does not name selection ${r.id} of ${marketId}`);
        return { selectionId: r.id, runnerName, handicap: FLOAT(r.hc ?? 0), sortPriority: r.sortPriority };
      }),
      eventType: { id: definition.eventTypeId, name: EVENT_TYPES.get(definition.eventTypeId) ?? definition.eventTypeId },
      event: {
        id: definition.eventId,
        name: `${home.name} v ${away.name}`,
        countryCode: definition.countryCode,
        timezone: definition.timezone,
        openDate: definition.openDate,
      },
    },
  ];
  return JSON.stringify(answer, null, 1).replace(/"\\u0000float:([-0-9.e]+)\\u0000"/g, '$1');
}
