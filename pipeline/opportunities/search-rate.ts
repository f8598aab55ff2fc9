import type { OddsRow } from '../../schemas/index.js';
import { rowAtCommission } from './account-rate.js';
import type { LineGroupState } from './line-group.js';
import type { FamilyState } from './state.js';

/**
 * The search rate: the lowest exchange commission rate any caller is charged. The board prices
 * an exchange at its own base rate, but an account on a lower rate is paid more, so a
 * combination can hold for it and not at the base rate. The combination engines (arbitrage,
 * low-hold, middles) look once more over the family with every exchange row above the search
 * rate priced at it; +EV is not searched again (its price is re-priced per caller from the
 * record, `opportunityAtCommission`). Pure: the rate is an input, handed in by whoever knows it.
 */

interface PricedRow {
  rate: number;
  row: OddsRow;
}

// A board row is priced at a rate once and the same object comes back while the row stays on the
// board: the lifecycle compares candidates' rows by identity, so an unchanged combination found
// at the search rate is recognised without being built again.
const PRICED = new WeakMap<OddsRow, PricedRow>();
const REPRICED = new WeakSet<OddsRow>();

/** The row as the search at `rate` prices it: an exchange row whose own rate is above it, net of `rate`; any other row as it is. */
export function rowAtSearchRate(row: OddsRow, rate: number): OddsRow {
  const x = row.exchange;
  if (x == null || !(x.commission > rate)) return row;
  const cached = PRICED.get(row);
  if (cached !== undefined && cached.rate === rate) return cached.row;
  const priced = rowAtCommission(row, rate);
  if (priced !== row) REPRICED.add(priced);
  PRICED.set(row, { rate, row: priced });
  return priced;
}

/** Whether a row is an exchange row priced below its own rate by the search (its price no caller at the base rate gets). */
export function pricedBelowItsRate(row: OddsRow): boolean {
  return REPRICED.has(row);
}

interface GroupView {
  rate: number;
  version: number;
  /** The group itself when none of its rows moves at the rate. */
  group: LineGroupState;
}

const VIEWS = new WeakMap<LineGroupState, GroupView>();

/**
 * A line group as the search at `rate` sees it: the same group when no row of it is an exchange
 * row above the rate, otherwise a copy of its shape with those rows priced at the rate, kept
 * while the group's version and the rate stay the same (so the price lists cached per group
 * serve every recompute in between).
 */
function groupAtSearchRate(group: LineGroupState, rate: number): LineGroupState {
  const cached = VIEWS.get(group);
  if (cached !== undefined && cached.rate === rate && cached.version === group.version) return cached.group;
  let view = group;
  for (const row of group.rows) {
    if (row == null || rowAtSearchRate(row, rate) === row) continue;
    const rows = group.rows.map((r) => (r == null ? null : rowAtSearchRate(r, rate)));
    view = {
      ...group,
      books: [...group.books],
      slots: new Map(group.slots),
      rows,
      sizes: [...group.sizes],
      summary: null,
      priceLists: null,
      references: null,
    };
    break;
  }
  VIEWS.set(group, { rate, version: group.version, group: view });
  return view;
}

/**
 * The family as the search at `rate` sees it (its line groups through `groupAtSearchRate`, the
 * rest shared, the id cache included: a combination has one id at every rate), or null when no
 * exchange row of it is above the rate, so the search would find nothing the board's has not.
 */
export function familyAtSearchRate(family: FamilyState, rate: number): FamilyState | null {
  let moved = false;
  for (const group of family.lines.values()) {
    if (groupAtSearchRate(group, rate) === group) continue;
    moved = true;
    break;
  }
  // Most families hold no exchange row: they get no copy at all.
  if (!moved) return null;
  const lines = new Map<string, LineGroupState>();
  for (const [key, group] of family.lines) lines.set(key, groupAtSearchRate(group, rate));
  return { ...family, lines };
}
