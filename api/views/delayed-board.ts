import type { CanonicalEvent, OddsChange, OddsRow } from '../../schemas/index.js';
import type { Clock } from '../../pipeline/clock.js';
import { LiveBoard } from './board.js';
import type { BoardListener, BoardOptions } from './board.js';
import { packChange, unpackChange } from './packed-change.js';
import type { PackedChange } from './packed-change.js';

/** An event as it was, an event's tombstone, or an odds change packed as text (see `PackedChange` for why). */
type Pending = CanonicalEvent | Forgotten | PackedChange;

interface Forgotten {
  forgotten: string;
}

/**
 * A second board that sees the changelog `delayMs` late: every event and odds change the source
 * board applies waits in a FIFO line, stamped with the time it arrived, and is applied to this
 * board once it is `delayMs` old by the system clock. A delayed tier reads this board (and its
 * own change log), never the live rows. `sync()` applies what is due; readers call it first, a
 * timer calls it in between so the line stays short.
 *
 * The line holds odds changes as text and unpacks each when it is due, reusing the source's
 * row when it has not changed since: a minute of changes at 2,000 ticks/s is then 120,000
 * strings, not a change, a row and its boxed numbers and strings for each one.
 */
export class DelayedBoard implements BoardListener {
  readonly board: LiveBoard;
  private queue: Pending[] = [];
  private times: number[] = [];
  private head = 0;
  private lastAt = -Infinity;
  private source: LiveBoard | null = null;

  constructor(
    readonly delayMs: number,
    private readonly clock: Clock,
    options: BoardOptions = {},
  ) {
    this.board = new LiveBoard({ now: () => clock.now(), ...options });
  }

  /** Follows `source` from now on; what it already holds becomes visible `delayMs` from now. */
  follow(source: LiveBoard): void {
    this.source = source;
    for (const e of source.allEvents()) this.applyEvent(e);
    for (const e of source.activeEvents()) {
      for (const [key, row] of source.entriesOf(e.id)) this.applyChange({ key, eventId: e.id, row, changedAt: row.ts });
    }
    source.subscribe(this);
  }

  get pending(): number {
    return this.queue.length - this.head;
  }

  applyEvent(event: CanonicalEvent): void {
    this.push(event);
  }

  applyChange(change: OddsChange): void {
    this.push(packChange(change));
  }

  eventForgotten(eventId: string): void {
    this.push({ forgotten: eventId });
  }

  /** Applies every change that is at least `delayMs` old; returns the board. */
  sync(): LiveBoard {
    const due = this.clock.now() - this.delayMs;
    while (this.head < this.queue.length && (this.times[this.head] ?? Infinity) <= due) {
      const item = this.queue[this.head] as Pending;
      this.queue[this.head] = undefined as unknown as Pending;
      this.head++;
      if (typeof item === 'string') this.board.applyChange(unpackChange(item, this.current));
      else if ('forgotten' in item) this.board.forgetEvent(item.forgotten);
      else this.board.applyEvent(item);
    }
    if (this.head > 4096 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
    return this.board;
  }

  private readonly current = (eventId: string, key: string): OddsRow | undefined => this.source?.row(eventId, key);

  private push(item: Pending): void {
    // Arrival times never run back, so the line stays in release order.
    const at = Math.max(this.clock.now(), this.lastAt);
    this.lastAt = at;
    this.queue.push(item);
    this.times.push(at);
  }
}
