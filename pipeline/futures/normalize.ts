import { FUTURE_KINDS, FUTURE_KIND_TYPES, foldName, futuresQuoteKey, playerId } from '../../schemas/index.js';
import type { FuturePrice, FutureKind, FuturesQuote, LeagueDef, RawFutures, TeamDef } from '../../schemas/index.js';
import { americanToDecimal } from '../odds-math/index.js';
import { TeamDirectory } from '../normalize/index.js';

/** Why a raw futures board was not published. */
export type FuturesUnmatchedReason = 'unknown_league' | 'unknown_market' | 'unknown_team' | 'bad_price';

export type FuturesNormalizeResult = { quote: FuturesQuote; unmatched: null } | { quote: null; unmatched: FuturesUnmatchedReason };

const KIND_NAMES: Readonly<Record<FutureKind, string>> = {
  championship: 'Championship Winner',
  mvp: 'MVP',
  season_wins: 'Regular Season Wins',
  make_playoffs: 'To Make the Playoffs',
};

/**
 * Raw futures boards to canonical markets: the league from the catalog, team outcomes (and the
 * team of a team's own market) through the same league-scoped name directory as game odds, a
 * market id that every book's board of the same market shares. Pure: no clock, no I/O.
 */
export class FuturesNormalizer {
  private readonly teams: TeamDirectory;
  private readonly leagues: Map<string, LeagueDef>;
  readonly counts = { matched: 0, unmatched: new Map<FuturesUnmatchedReason, number>() };

  constructor(catalog: { teams: readonly TeamDef[]; leagues: readonly LeagueDef[] }) {
    this.teams = new TeamDirectory(catalog.teams);
    this.leagues = new Map(catalog.leagues.map((l) => [l.id, l]));
  }

  handle(raw: RawFutures): FuturesNormalizeResult {
    const result = this.resolve(raw);
    if (result.quote) this.counts.matched++;
    else this.counts.unmatched.set(result.unmatched, (this.counts.unmatched.get(result.unmatched) ?? 0) + 1);
    return result;
  }

  private resolve(raw: RawFutures): FuturesNormalizeResult {
    const league = this.leagues.get(raw.league);
    if (!league) return { quote: null, unmatched: 'unknown_league' };
    if (!(FUTURE_KINDS as readonly string[]).includes(raw.market)) return { quote: null, unmatched: 'unknown_market' };
    const futureType = FUTURE_KIND_TYPES[raw.market];
    let subjectTeamId: string | null = null;
    if (raw.subject !== null) {
      subjectTeamId = this.teams.resolve(league.id, raw.subject) ?? null;
      if (subjectTeamId === null) return { quote: null, unmatched: 'unknown_team' };
    }
    const selections: FuturePrice[] = [];
    for (const s of raw.selections) {
      if (!Number.isInteger(s.priceAmerican) || Math.abs(s.priceAmerican) < 100) return { quote: null, unmatched: 'bad_price' };
      let selection = s.name;
      let selectionId: string;
      if (futureType === 'TEAM') {
        const teamId = this.teams.resolve(league.id, s.name);
        if (teamId === undefined) return { quote: null, unmatched: 'unknown_team' };
        selectionId = teamId;
        selection = this.teams.team(teamId)?.name ?? s.name;
      } else if (futureType === 'PLAYER') {
        selectionId = playerId(s.name);
      } else {
        selectionId = foldName(s.name);
        selection =
          selectionId === 'over'
            ? 'Over'
            : selectionId === 'under'
              ? 'Under'
              : selectionId === 'yes'
                ? 'Yes'
                : selectionId === 'no'
                  ? 'No'
                  : s.name;
      }
      const priceDecimal = americanToDecimal(s.priceAmerican);
      selections.push({
        selection,
        selectionId,
        line: s.line,
        priceAmerican: s.priceAmerican,
        priceDecimal,
        probability: 1 / priceDecimal,
      });
    }
    const subjectName = subjectTeamId === null ? null : (this.teams.team(subjectTeamId)?.name ?? raw.subject);
    const futureId = `${league.id}-${raw.season}-${raw.market}${subjectTeamId === null ? '' : `-${subjectTeamId}`}`;
    const name = `${subjectName ?? league.name} ${raw.season} ${KIND_NAMES[raw.market]}`;
    return {
      unmatched: null,
      quote: {
        key: futuresQuoteKey(futureId, raw.book),
        futureId,
        name,
        sport: league.sport,
        league: league.id,
        futureType,
        market: raw.market,
        season: raw.season,
        subjectTeamId,
        settlesAt: raw.settlesAt,
        book: raw.book,
        bookMarketId: raw.bookMarketId,
        ts: raw.ts,
        selections,
      },
    };
  }
}
