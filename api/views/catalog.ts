import { LEAGUES, MARKETS, SPORTS, SPORTSBOOKS, TEAMS } from '../../schemas/index.js';
import type { LeagueDef, MarketDef, MarketId, SportDef, SportsbookDef, TeamDef } from '../../schemas/index.js';
import { builtInTemplates } from '../../schemas/index.js';
import type { DeepLinkTemplates } from '../../schemas/index.js';
import { TeamIndex } from './team-index.js';

/** Reference data by id, read-only, shared by every route. */
export class Catalog {
  readonly sports = new Map<string, SportDef>();
  readonly leagues = new Map<string, LeagueDef>();
  readonly books = new Map<string, SportsbookDef>();
  readonly markets = new Map<MarketId, MarketDef>();
  readonly teams: TeamIndex;

  constructor(
    data: {
      sports: readonly SportDef[];
      leagues: readonly LeagueDef[];
      books: readonly SportsbookDef[];
      markets: readonly MarketDef[];
      teams: readonly TeamDef[];
    } = { sports: SPORTS, leagues: LEAGUES, books: SPORTSBOOKS, markets: MARKETS, teams: TEAMS },
    /** Deep-link URL templates per book (configuration: built in, merged with DEEPLINK_TEMPLATES). */
    readonly deepLinks: DeepLinkTemplates = builtInTemplates(),
    /**
     * Where `deep_link` URLs point: this service's public origin (api/deeplinks `PublicOrigin`,
     * from PUBLIC_BASE_URL or the listen address); the default listen address when not given.
     */
    readonly publicOrigin: { readonly origin: string } = { origin: 'http://127.0.0.1:8080' },
  ) {
    for (const s of data.sports) this.sports.set(s.id, s);
    for (const l of data.leagues) this.leagues.set(l.id, l);
    for (const b of data.books) this.books.set(b.id, b);
    for (const m of data.markets) this.markets.set(m.id, m);
    this.teams = new TeamIndex(data.teams);
  }

  leaguesOf(sport: string): string[] {
    return [...this.leagues.values()].filter((l) => l.sport === sport).map((l) => l.id);
  }
}
