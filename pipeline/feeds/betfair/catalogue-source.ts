import type { FeedLogger } from '../feed-runtime.js';
import { errorMessage } from '../feed-runtime.js';
import { catalogueOf, readCatalogue } from './catalogue.js';
import type { CatalogueMarket } from './catalogue.js';

/** Where the feed gets runner and event names: asked for the markets of a change before they are mapped. */
export interface CatalogueSource {
  /** Makes the named markets known where it can; never rejects (a market it cannot name is skipped by the mapping). */
  load(marketIds: readonly string[]): Promise<void>;
  get(marketId: string): CatalogueMarket | undefined;
}

/** A catalogue known up front (a replay's file). */
export class FixedCatalogue implements CatalogueSource {
  constructor(private readonly markets: ReadonlyMap<string, CatalogueMarket>) {}
  load(): Promise<void> {
    return Promise.resolve();
  }
  get(marketId: string): CatalogueMarket | undefined {
    return this.markets.get(marketId);
  }
}

export const DEFAULT_BETTING_API_URL = 'https://api.betfair.com/exchange/betting/rest/v1.0';

const PROJECTION = ['EVENT', 'EVENT_TYPE', 'COMPETITION', 'MARKET_DESCRIPTION', 'RUNNER_DESCRIPTION', 'MARKET_START_TIME'];

export interface BettingApiCatalogueOptions {
  baseUrl: string;
  appKey: string;
  sessionToken: string;
  /** A market the API could not name is asked for again after this long. */
  retryAfterMs?: number;
  now?: () => number;
  fetch?: typeof fetch;
  logger: FeedLogger;
}

/**
 * The Betting API's `listMarketCatalogue`, asked once per market and cached for the life of the
 * feed (names do not change while a market trades). The credentials travel in headers and are
 * never logged.
 */
export class BettingApiCatalogue implements CatalogueSource {
  private readonly known = new Map<string, CatalogueMarket>();
  private readonly failedAt = new Map<string, number>();
  private readonly retryAfterMs: number;
  private readonly now: () => number;
  private readonly fetch: typeof fetch;
  private sessionToken: string;

  constructor(private readonly options: BettingApiCatalogueOptions) {
    this.sessionToken = options.sessionToken;
    this.retryAfterMs = options.retryAfterMs ?? 30_000;
    this.now = options.now ?? Date.now;
    this.fetch = options.fetch ?? fetch;
  }

  get(marketId: string): CatalogueMarket | undefined {
    return this.known.get(marketId);
  }

  /** Uses a new session token from now on (the stream logged in again after its session expired). */
  useSession(sessionToken: string): void {
    this.sessionToken = sessionToken;
  }

  async load(marketIds: readonly string[]): Promise<void> {
    const now = this.now();
    const wanted = marketIds.filter((id) => !this.known.has(id) && now - (this.failedAt.get(id) ?? -Infinity) >= this.retryAfterMs);
    if (wanted.length === 0) return;
    try {
      const response = await this.fetch(`${this.options.baseUrl}/listMarketCatalogue/`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'X-Application': this.options.appKey,
          'X-Authentication': this.sessionToken,
        },
        body: JSON.stringify({ filter: { marketIds: wanted }, marketProjection: PROJECTION, maxResults: wanted.length }),
      });
      if (!response.ok) throw new Error(`listMarketCatalogue answered HTTP ${response.status}`);
      for (const [id, market] of catalogueOf(readCatalogue(await response.json()))) this.known.set(id, market);
    } catch (err) {
      this.options.logger.warn(
        { markets: wanted, error: errorMessage(err) },
        'betfair: market catalogue unavailable, markets skipped for now',
      );
    }
    for (const id of wanted) if (!this.known.has(id)) this.failedAt.set(id, now);
  }
}
