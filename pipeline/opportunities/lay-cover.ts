import type { OddsRow, SelectionType } from '../../schemas/index.js';
import type { Combo } from './combos.js';
import { comboOrder } from './combos.js';
import { layDecimalOf } from './lay.js';
import type { LineGroupState } from './line-group.js';
import { WIDTH, selectionIndex } from './line-group.js';
import { decimalOf } from './state.js';

/**
 * Lays in markets of three or more outcomes. A lay of runner X pays when any other runner wins,
 * so it covers all outcomes but X at once and fits no search that picks one price per outcome.
 * With one lay the only way to cover every outcome exactly once is to back X as well: a back of
 * X at one book and a lay of X on an exchange is a two-leg cover of the whole market, priced as
 * any two-way arbitrage (the lay as a back of "not X", `layDecimalOf`). Two lays of different
 * runners overlap (both pay when a third runner wins), and a back of another runner beside a lay
 * of X pays twice where the lay already pays and never where it does not, so neither is a cover
 * that splits a stake as an arbitrage does; they are not searched.
 */

interface Price {
  row: OddsRow;
  d: number;
}

/**
 * Every back-X-plus-lay-X cover of the group whose implied probabilities sum below 1, best first
 * (the order of `combosUnder`), at most `limit`. A back and a lay of the same row (one exchange's
 * own spread) never pair.
 */
export function layCoverCombos(group: LineGroupState, outcomes: readonly SelectionType[], limit: number): Combo[] {
  if (outcomes.length < 3 || limit <= 0) return [];
  const found: Combo[] = [];
  for (const outcome of outcomes) {
    const backs: Price[] = [];
    const lays: Price[] = [];
    const at = selectionIndex(outcome);
    for (let base = 0; base < group.rows.length; base += WIDTH) {
      const row = group.rows[base + at];
      if (row == null) continue;
      backs.push({ row, d: decimalOf(row) });
      if (row.exchange == null) continue;
      const lay = layDecimalOf(row);
      if (lay !== null) lays.push({ row, d: lay });
    }
    for (const lay of lays) {
      for (const back of backs) {
        if (back.row === lay.row) continue;
        const impliedSum = 1 / back.d + 1 / lay.d;
        if (impliedSum < 1) found.push({ rows: [back.row, lay.row], decimals: [back.d, lay.d], sides: ['back', 'lay'], impliedSum });
      }
    }
  }
  return found.sort(comboOrder).slice(0, limit);
}
