import type { CanonicalEvent, OddsChange, OddsRow } from '../../schemas/index.js';
import type { BoardListener, LiveBoard } from '../views/index.js';

/**
 * Odds rows by their public id, for deep links: the board keys rows by row key, clients know
 * the id. Follows the live board as a listener (and indexes what it already holds); a change
 * costs one Map write, no allocation.
 */
export class RowIdIndex implements BoardListener {
  private readonly byId = new Map<string, OddsRow>();
  private readonly idByKey = new Map<string, string>();

  constructor(board: LiveBoard) {
    for (const event of board.allEvents()) for (const [key, row] of board.entriesOf(event.id)) this.put(key, row);
    board.subscribe(this);
  }

  applyEvent(_event: CanonicalEvent): void {}

  applyChange(change: OddsChange): void {
    if (change.row !== null) return this.put(change.key, change.row);
    const id = this.idByKey.get(change.key);
    if (id !== undefined) this.byId.delete(id);
    this.idByKey.delete(change.key);
  }

  /** The current row with this id, if it is on the board. */
  row(id: string): OddsRow | undefined {
    return this.byId.get(id);
  }

  private put(key: string, row: OddsRow): void {
    this.byId.set(row.id, row);
    if (!this.idByKey.has(key)) this.idByKey.set(key, row.id);
  }
}
