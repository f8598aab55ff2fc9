import type { Opportunity, OpportunityLeg } from '../../schemas/index.js';
import type { RowContext } from '../contract/index.js';
import type { GameStateBoard } from '../views/index.js';
import type { EntryOf, OpportunityBoard } from '../views/index.js';

type EvEntries = readonly EntryOf<'ev'>[];

/** One selection of one market at one line: where a +EV bet and an arbitrage or low-hold leg meet. */
function selectionAt(o: Opportunity, selection: string, line: number | null): string {
  return `${o.eventId}|${o.market}|${o.participant ?? ''}|${o.statCategory ?? ''}|${selection}|${line ?? ''}`;
}

// The board hands out the same list until its +EV entries change: the index is built once per
// version of that list, however many rows and stream frames read it.
const indexes = new WeakMap<EvEntries, Map<string, number>>();

/** The best headline EV % (power de-vig) per selection and line over the board's +EV list. */
function bestEvBySelection(list: EvEntries): Map<string, number> {
  let index = indexes.get(list);
  if (!index) {
    index = new Map();
    for (const { o } of list) {
      const key = selectionAt(o, o.selection, o.line);
      index.set(key, Math.max(index.get(key) ?? -Infinity, o.value));
    }
    indexes.set(list, index);
  }
  return index;
}

/**
 * What opportunity rows show beside their own record, from the other boards: the best +EV on
 * any leg of the same market at the same line, and the live game's state. REST and streams
 * build it alike, so their rows agree.
 */
export function opportunityContext(board: OpportunityBoard, games: GameStateBoard | undefined): RowContext {
  return {
    evOf: (o) => {
      const index = bestEvBySelection(board.list('ev'));
      let best: number | null = null;
      for (const leg of o.legs as readonly OpportunityLeg[]) {
        // A lay is no bet on its runner: the +EV of backing that runner says nothing of it.
        if (leg.side === 'lay') continue;
        const ev = index.get(selectionAt(o, leg.selection, leg.line));
        if (ev !== undefined && (best === null || ev > best)) best = ev;
      }
      return best;
    },
    gameOf: (eventId) => games?.get(eventId),
  };
}
