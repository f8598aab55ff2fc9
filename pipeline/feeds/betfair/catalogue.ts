/**
 * What the stream does not carry: runner and event names, from the Betting API's
 * `listMarketCatalogue` answer (an array of market catalogues). Read from that answer's JSON,
 * whether it came over HTTP or from a file beside a recording.
 */

export interface CatalogueRunner {
  selectionId: number;
  handicap: number;
  runnerName: string;
  sortPriority: number;
}

export interface CatalogueMarket {
  marketId: string;
  marketName: string;
  /** ISO time. */
  marketStartTime: string | null;
  marketType: string | null;
  eventTypeId: string | null;
  eventTypeName: string | null;
  competitionName: string | null;
  eventId: string | null;
  eventName: string | null;
  runners: readonly CatalogueRunner[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown, fallback: number): number => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);

function readMarket(entry: unknown): CatalogueMarket | null {
  if (!isObject(entry)) return null;
  const marketId = str(entry['marketId']);
  if (marketId === null || !Array.isArray(entry['runners'])) return null;
  const runners: CatalogueRunner[] = [];
  for (const r of entry['runners'] as unknown[]) {
    if (!isObject(r) || typeof r['selectionId'] !== 'number' || typeof r['runnerName'] !== 'string') continue;
    runners.push({
      selectionId: r['selectionId'],
      handicap: num(r['handicap'], 0),
      runnerName: r['runnerName'],
      sortPriority: num(r['sortPriority'], 0),
    });
  }
  const description = isObject(entry['description']) ? entry['description'] : {};
  const eventType = isObject(entry['eventType']) ? entry['eventType'] : {};
  const competition = isObject(entry['competition']) ? entry['competition'] : {};
  const event = isObject(entry['event']) ? entry['event'] : {};
  return {
    marketId,
    marketName: str(entry['marketName']) ?? '',
    marketStartTime: str(entry['marketStartTime']) ?? str(event['openDate']),
    marketType: str(description['marketType']),
    eventTypeId: str(eventType['id']),
    eventTypeName: str(eventType['name']),
    competitionName: str(competition['name']),
    eventId: str(event['id']),
    eventName: str(event['name']),
    runners,
  };
}

/** The markets of one `listMarketCatalogue` answer; entries without a market id or runners are left out. */
export function readCatalogue(answer: unknown): CatalogueMarket[] {
  if (!Array.isArray(answer)) return [];
  return answer.map(readMarket).filter((m): m is CatalogueMarket => m !== null);
}

/** Market id to its catalogue entry. */
export type Catalogue = ReadonlyMap<string, CatalogueMarket>;

export function catalogueOf(markets: readonly CatalogueMarket[]): Map<string, CatalogueMarket> {
  return new Map(markets.map((m) => [m.marketId, m] as const));
}
