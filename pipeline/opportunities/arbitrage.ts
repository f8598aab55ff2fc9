import type { ArbitrageOpportunity, OddsRow, OpportunityLeg } from '../../schemas/index.js';
import { arbitrage } from '../odds-math/index.js';
import type { Combo } from './combos.js';
import { comboOrder, combosUnder, distinctBooks, hasLay } from './combos.js';
import type { Candidate, EngineContext } from './context.js';
import { commonFields, withKind } from './context.js';
import { NO_ROWS } from './inputs.js';
import type { CandidateValue } from './inputs.js';
import { familyOpportunityId } from './ids.js';
import { stakeCapacity } from './capacity.js';
import { layLegOf } from './lay.js';
import { layCoverCombos } from './lay-cover.js';
import { legOf, lineKey, round } from './state.js';
import type { LineGroupState } from './line-group.js';

/**
 * The legs of a combination with their stake shares (proportional to 1/decimal). Where one leg
 * lays, every leg says its side; otherwise the legs are as they always were.
 */
export function comboLegs(combo: Combo, stakes: readonly number[]): OpportunityLeg[] {
  const lays = hasLay(combo);
  return combo.rows.map((r, i) => {
    const share = round(stakes[i] ?? 0, 6);
    if (!lays) return legOf(r, share);
    if (combo.sides[i] === 'lay') return layLegOf(r, share);
    const leg = legOf(r, share);
    leg.side = 'back';
    return leg;
  });
}

/**
 * Id and inputs of a combination: a lay leg's row is the runner laid, whose own price says
 * nothing of its lay, so the lay's price and size join the inputs.
 */
export function comboIdentityOf(ctx: EngineContext, kind: 'arbitrage' | 'low_hold', combo: Combo): Pick<Candidate, 'id' | 'values'> {
  if (!hasLay(combo)) return comboIdentity(ctx, kind, combo.rows);
  const lays = combo.rows
    .map((r, i) => (combo.sides[i] === 'lay' ? `${i}:${r.exchange?.lay ?? ''}/${r.exchange?.laySize ?? ''}` : ''))
    .join(',');
  return comboIdentity(ctx, kind, combo.rows, lays);
}

export function anyLive(rows: readonly OddsRow[]): boolean {
  return rows.some((r) => r.isLive);
}

/**
 * Id and inputs of a combination of rows besides the rows themselves: the event's live state
 * and start, then `extra`.
 */
export function comboIdentity(
  ctx: EngineContext,
  kind: 'arbitrage' | 'low_hold' | 'middle',
  rows: readonly OddsRow[],
  ...extra: CandidateValue[]
): Pick<Candidate, 'id' | 'values'> {
  return {
    id: familyOpportunityId(ctx.family, kind, ctx.eventId, rows),
    values: [ctx.event.isLive, ctx.event.startTime, ...extra],
  };
}

/**
 * Arbitrage at one line: every combination of books, one per outcome, whose prices sum to less
 * than 1 in implied probability (at least two books: one book's own market beating itself is a
 * feed error). In a two-way market an exchange's lay of one outcome may stand for the other
 * (lay.ts): back A at a sportsbook and lay A on the exchange. In a market of three or more
 * outcomes that same pair is a cover of its own (lay-cover.ts), beside the one-price-per-outcome
 * combinations. Best first, at most `maxCombosPerLine`; the API shows each caller the best
 * combination among the books it may see.
 */
export function arbitrageCandidates(ctx: EngineContext, g: LineGroupState, out: Candidate[]): void {
  const limit = ctx.options.maxCombosPerLine;
  let combos = combosUnder(g, ctx.outcomes, {
    maxSum: 1,
    strict: true,
    limit,
    accept: (rows) => distinctBooks(rows) >= 2,
    lays: true,
  });
  const covers = layCoverCombos(g, ctx.outcomes, limit);
  if (covers.length > 0) combos = [...combos, ...covers].sort(comboOrder).slice(0, limit);
  if (combos.length === 0) return;
  const line = g.line;
  const situation = `${ctx.eventId}|${ctx.family.key}|${lineKey(line)}`;
  for (const combo of combos) {
    const { id, values } = comboIdentityOf(ctx, 'arbitrage', combo);
    out.push({
      id,
      rows: combo.rows,
      refRows: NO_ROWS,
      values,
      scope: g.key,
      build: (): ArbitrageOpportunity => {
        const result = arbitrage(combo.decimals, 1);
        const legs = comboLegs(combo, result.stakes);
        const profit = round(result.profitPercent, 4);
        return withKind<ArbitrageOpportunity>(commonFields(ctx, id, situation, legs, legs, anyLive(combo.rows), profit), {
          kind: 'arbitrage',
          line,
          profitPercent: profit,
          impliedSum: round(result.impliedSum, 8),
          ...stakeCapacity(combo.rows, result.stakes, combo.sides),
        });
      },
    });
  }
}
