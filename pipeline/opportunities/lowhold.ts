import type { LowHoldOpportunity } from '../../schemas/index.js';
import { arbitrage, hold } from '../odds-math/index.js';
import { anyLive, comboIdentityOf, comboLegs } from './arbitrage.js';
import { stakeCapacity } from './capacity.js';
import { combosUnder } from './combos.js';
import type { Candidate, EngineContext } from './context.js';
import { commonFields, withKind } from './context.js';
import { NO_ROWS } from './inputs.js';
import { lineKey, round } from './state.js';
import type { LineGroupState } from './line-group.js';

/**
 * Low-hold at one line: the best price of each outcome (one book or several), when its hold
 * 1 - 1/sum(1/d) is at or below the threshold; once over every book, and once within each book
 * scope (the sets of books a tier sees), so that every caller finds the best market it can bet.
 * Hold, not overround, throughout: -110/-110 is a 4.55 % hold. Arbitrages (negative hold) count.
 */
export function lowHoldCandidates(ctx: EngineContext, g: LineGroupState, out: Candidate[]): void {
  const maxSum = 1 / (1 - ctx.options.lowHoldPercent / 100);
  const line = g.line;
  let seen: Set<string> | null = null;
  for (const allowed of ctx.options.scopes) {
    for (const combo of combosUnder(g, ctx.outcomes, { maxSum, strict: false, limit: 1, allowed })) {
      const { id, values } = comboIdentityOf(ctx, 'low_hold', combo);
      seen ??= new Set();
      if (seen.has(id)) continue;
      seen.add(id);
      out.push({
        id,
        rows: combo.rows,
        refRows: NO_ROWS,
        values,
        scope: g.key,
        build: (): LowHoldOpportunity => {
          const stakes = arbitrage(combo.decimals, 1).stakes;
          const legs = comboLegs(combo, stakes);
          const holdPercent = round(hold(combo.decimals) * 100, 4);
          const situation = `${ctx.eventId}|${ctx.family.key}|${lineKey(line)}`;
          return withKind<LowHoldOpportunity>(commonFields(ctx, id, situation, legs, legs, anyLive(combo.rows), holdPercent), {
            kind: 'low_hold',
            line,
            holdPercent,
            impliedSum: round(combo.impliedSum, 8),
            ...stakeCapacity(combo.rows, stakes, combo.sides),
          });
        },
      });
    }
  }
}
