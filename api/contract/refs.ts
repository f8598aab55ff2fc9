import type { MarketId, SelectionType } from '../../schemas/index.js';
import type { Catalog } from '../views/index.js';

/** The nested reference blocks (additive): present only for mapped entities. */
export function teamRef(
  catalog: Catalog,
  id: string,
): { id: string; numerical_id: number; name: string; abbreviation: string | null } | undefined {
  const t = catalog.teams.get(id);
  return t && { id: t.id, numerical_id: t.numericalId, name: t.name, abbreviation: t.abbreviation };
}

export function sportRef(catalog: Catalog, id: string): { id: string; numerical_id: number; name: string } | undefined {
  const s = catalog.sports.get(id);
  return s && { id: s.id, numerical_id: s.numericalId, name: s.name };
}

export function leagueRef(catalog: Catalog, id: string): { id: string; numerical_id: number; label: string } | undefined {
  const l = catalog.leagues.get(id);
  return l && { id: l.id, numerical_id: l.numericalId, label: l.name };
}

export function bookRef(catalog: Catalog, id: string): { id: string; numerical_id: number; label: string } | undefined {
  const b = catalog.books.get(id);
  return b && { id: b.id, numerical_id: b.numericalId, label: b.displayName };
}

export function marketRef(catalog: Catalog, id: MarketId): { id: string; numerical_id: number | null; label: string } | undefined {
  const m = catalog.markets.get(id);
  return m && { id: m.id, numerical_id: m.numericalId, label: m.name };
}

export function teamName(catalog: Catalog, id: string): string {
  return catalog.teams.get(id)?.name ?? id;
}

/**
 * The display label of a selection, as sportsbooks show it: the team's name for sides, `Draw`,
 * `Over`/`Under`, `Yes`/`No`; team totals prefix the team, player props the player
 * (`LeBron James Over`).
 */
export function selectionLabel(
  catalog: Catalog,
  teams: { homeTeamId: string; awayTeamId: string },
  market: MarketId,
  participant: string | null,
  selection: SelectionType,
): string {
  const team = (side: string | null): string | null =>
    side === 'home' ? teamName(catalog, teams.homeTeamId) : side === 'away' ? teamName(catalog, teams.awayTeamId) : null;
  const word =
    { home: team('home'), away: team('away'), draw: 'Draw', over: 'Over', under: 'Under', yes: 'Yes', no: 'No' }[selection] ?? selection;
  if (market === 'team_total') return `${team(participant) ?? ''} ${word}`.trim();
  if (market === 'player_prop' && participant) return `${participant} ${word}`;
  return word;
}

/** The reference service's market type: the market id, or `player_<stat>` for one stat of player props. */
export function marketType(market: MarketId, statCategory: string | null): string {
  return market === 'player_prop' && statCategory ? `player_${statCategory}` : market;
}

/** `Away @ Home`, the human-readable event name. */
export function eventName(catalog: Catalog, teams: { homeTeamId: string; awayTeamId: string }): string {
  return `${teamName(catalog, teams.awayTeamId)} @ ${teamName(catalog, teams.homeTeamId)}`;
}
