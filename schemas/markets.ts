/**
 * Market types and selection types of the public contract, as `as const` objects so that route
 * schemas, the OpenAPI document and the code derive their allowed values from one place.
 */
export const MARKET_IDS = [
  'moneyline',
  'point_spread',
  'total_points',
  'team_total',
  'player_prop',
  'game_prop',
  'future',
  '1st_half',
  '1st_quarter',
] as const;
export type MarketId = (typeof MARKET_IDS)[number];

export const SELECTION_TYPES = ['home', 'away', 'draw', 'over', 'under', 'yes', 'no'] as const;
export type SelectionType = (typeof SELECTION_TYPES)[number];

/**
 * Within one market id, outcomes fall into families that are priced against each other:
 * `side` (home/away, with draw for three-way), `total` (over/under), `binary` (yes/no).
 * Period markets (1st_half, 1st_quarter) carry both a side family (the period spread) and a
 * total family, so the family is part of every outcome-group key.
 */
export type SelectionFamily = 'side' | 'total' | 'binary';

export function selectionFamily(selection: SelectionType): SelectionFamily {
  switch (selection) {
    case 'home':
    case 'away':
    case 'draw':
      return 'side';
    case 'over':
    case 'under':
      return 'total';
    case 'yes':
    case 'no':
      return 'binary';
  }
}
