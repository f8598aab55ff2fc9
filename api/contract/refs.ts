import type { MarketId } from '../../schemas/index.js';
import type { Catalog } from '../views/catalog.js';

/** The nested reference blocks (additive): present only for mapped entities. */
export function teamRef(catalog: Catalog, id: string): { id: string; numerical_id: number; name: string; abbreviation: string | null } | undefined {
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
