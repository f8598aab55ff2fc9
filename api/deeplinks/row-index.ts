import type { CanonicalEvent, OddsChange, OddsRow } from '../../schemas/index.js';
import type { BoardListener, LiveBoard } from '../views/index.js';

/**
 * Odds rows by their public id, for deep links: the board keys rows by row key, clients know
 * the id. Follows the live board as a listener (and indexes what it already holds); a change
 * costs one or two Map operations, no allocation.
 *
 * The id a change replaces or removes is read from the board, which still holds that row when it
 * tells its listeners. A second map of its own from row key to id held a copy of what the board
 * holds: on the soak's board a table of 46,000 keys, 1.8 MB, which doubled once to 3.7 MB as
 * line moves filled its deleted slots (docs/soak.md, round eleven).
 */
export class RowIdIndex implements BoardListener {
  private readonly byId = new Map<string, OddsRow>();

  constructor(private readonly board: LiveBoard) {
    for (const event of board.allEvents()) for (const [, row] of board.entriesOf(event.id)) this.byId.set(row.id, row);
    board.subscribe(this);
  }

  /** Ids indexed: the board's rows of events it has a record of. */
  get size(): number {
    return this.byId.size;
  }

  applyEvent(_event: CanonicalEvent): void {}

  applyChange(change: OddsChange): void {
    const before = this.board.row(change.eventId, change.key);
    if (before !== undefined && before.id !== change.row?.id) this.byId.delete(before.id);
    if (change.row !== null) this.byId.set(change.row.id, change.row);
  }

  /** The current row with this id, if it is on the board. */
  row(id: string): OddsRow | undefined {
    return this.byId.get(id);
  }
}
