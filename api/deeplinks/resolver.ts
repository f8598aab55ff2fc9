import type { MarketId, Opportunity } from '../../schemas/index.js';
import type { Catalog } from '../views/index.js';
import type { LiveBoard } from '../views/index.js';
import type { OpportunityBoard } from '../views/index.js';
import { fillTemplate } from '../../schemas/index.js';
import type { RowIdIndex } from './row-index.js';

/** Where `deep_link` fields and the batch point: the public resolver. */
export const DEEP_LINK_PATH = '/api/v1/deeplink/';

export type DeepLinkType = 'outcome' | 'event' | 'homepage';

export interface ResolvedLink {
  url: string;
  type: DeepLinkType;
}

/** One book's listing of a bet: what the templates are filled from. */
interface Target {
  book: string;
  eventId: string;
  bookEventId: string | null;
  selectionId: string | null;
  market: MarketId | null;
}

export interface LinkRequest {
  state: string;
  /** Picks the leg of a multi-book opportunity, or the book of a `gameId` hint. */
  book?: string;
  /** Our event id: with `book`, resolves an id the service no longer knows to the book's event page. */
  gameId?: string;
}

/**
 * The resolver URL of an id (absolute, on the public origin), when its book has templates; null
 * otherwise (never a made-up link).
 */
export function deepLinkUrl(catalog: Catalog, book: string, id: string, query = ''): string | null {
  return catalog.deepLinks.has(book) ? `${catalog.publicOrigin.origin}${DEEP_LINK_PATH}${encodeURIComponent(id)}${query}` : null;
}

/** The `deep_link` of an opportunity leg: the opportunity id, with `book` naming the leg. */
export function legDeepLink(catalog: Catalog, opportunityId: string, book: string): string | null {
  return deepLinkUrl(catalog, book, opportunityId, `?book=${encodeURIComponent(book)}`);
}

const LEVELS = [
  ['selection', 'outcome'],
  ['market', 'outcome'],
  ['event', 'event'],
  ['homepage', 'homepage'],
] as const;

/**
 * Odds ids and opportunity ids to a sportsbook URL, from the configured templates: the most
 * precise level whose placeholders the listing fills (selection, market, event, homepage).
 */
export class DeepLinkResolver {
  constructor(
    private readonly catalog: Catalog,
    private readonly board: LiveBoard,
    private readonly rows: RowIdIndex,
    private readonly opportunities: OpportunityBoard,
  ) {}

  resolve(id: string, request: LinkRequest): ResolvedLink | null {
    const target = this.targetOf(id, request.book) ?? this.hinted(request);
    return target ? this.fill(target, request.state) : null;
  }

  private targetOf(id: string, book: string | undefined): Target | null {
    const row = this.rows.row(id);
    if (row)
      return { book: row.book, eventId: row.eventId, bookEventId: row.bookEventId, selectionId: row.selectionId, market: row.market };
    const o = this.opportunities.get(id);
    return o ? this.legOf(o, book) : null;
  }

  /** The leg `book` names, else the first leg whose book has templates. */
  private legOf(o: Opportunity, book: string | undefined): Target | null {
    const leg =
      book === undefined ? (o.legs.find((l) => this.catalog.deepLinks.has(l.book)) ?? o.legs[0]) : o.legs.find((l) => l.book === book);
    if (!leg) return null;
    return { book: leg.book, eventId: o.eventId, bookEventId: leg.bookEventId, selectionId: leg.selectionId, market: o.market };
  }

  /** An id the service does not know, with `game_id` and `book`: the book's page of that event. */
  private hinted(request: LinkRequest): Target | null {
    if (request.gameId === undefined || request.book === undefined) return null;
    const event = this.board.event(request.gameId);
    if (!event) return null;
    const bookEventId = new Map(Object.entries(event.externalIds)).get(request.book);
    return bookEventId === undefined ? null : { book: request.book, eventId: event.id, bookEventId, selectionId: null, market: null };
  }

  private fill(target: Target, state: string): ResolvedLink | null {
    const templates = this.catalog.deepLinks.get(target.book);
    if (!templates) return null;
    const event = this.board.event(target.eventId);
    const values = {
      event_id: target.bookEventId,
      selection_id: target.selectionId,
      market: target.market,
      state,
      sport: event?.sport ?? null,
      league: event?.league ?? null,
      game_id: target.eventId,
    };
    // A state the book's URLs do not serve gets its homepage rather than a dead regional link.
    const served = templates.states === undefined || templates.states.includes(state);
    for (const [level, type] of LEVELS) {
      if (!served && level !== 'homepage') continue;
      const template = templates[level];
      const url = template === undefined ? null : fillTemplate(template, values);
      if (url !== null) return { url, type };
    }
    return null;
  }
}
