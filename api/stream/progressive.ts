/**
 * Longest stretch a snapshot being sent holds the event loop before it lets everything else run
 * (other subscribers' frames, the pipeline): a Sharp key's unfiltered snapshot is tens of
 * megabytes, presented and written over many turns instead of one.
 */
export const SNAPSHOT_TURN_MS = 8;

/**
 * Calls `send(i)` for i = 0 .. count - 1 in order, yielding to the event loop whenever a turn's
 * budget is spent, and stops when `alive()` turns false (the client went). A message that is
 * costly to build (`piecewise(i)`) is built a piece at a time before it is sent, the budget checked
 * between pieces: one frame of a thousand rows presented for the first time would otherwise hold
 * the loop for tens of milliseconds. Small snapshots go out in the caller's turn. Resolves true
 * when every one was sent.
 */
export async function sendInTurns(
  count: number,
  send: (i: number) => void,
  alive: () => boolean,
  turnMs = SNAPSHOT_TURN_MS,
  piecewise?: (i: number) => Piecewise | undefined,
): Promise<boolean> {
  let since = performance.now();
  const spent = (): boolean => performance.now() - since >= turnMs;
  const nextTurn = async (): Promise<void> => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    since = performance.now();
  };
  for (let i = 0; i < count; i++) {
    const frame = piecewise?.(i);
    for (let k = 0, n = frame?.pieces ?? 0; k < n; k++) {
      if (!alive()) return false;
      frame?.build(k);
      if (spent()) await nextTurn();
    }
    if (!alive()) return false;
    send(i);
    if (i + 1 < count && spent()) await nextTurn();
  }
  return alive();
}

/** A frame body that can be built a piece at a time before it is asked for. */
export interface Piecewise {
  /** Pieces still to build (0 once built). */
  readonly pieces: number;
  build(piece: number): void;
}

/** A snapshot message as SSE and WebSocket list them: its name, its body (built when first sent), and how to build that body in pieces ahead. */
export type SnapshotBody = [name: string, text: () => string, pieces?: Piecewise];

/** Rows presented per piece of a `RowsFrame`: about a millisecond's work. */
const ROWS_PER_PIECE = 100;

/**
 * A snapshot frame over rows whose JSON is made on first use (presented rows, `json`): built
 * once, then kept, so members joining together share it. `build(k)` presents the k-th hundred
 * rows ahead of `text`.
 */
export class RowsFrame implements Piecewise {
  private value: string | undefined;

  constructor(
    private readonly rows: readonly { readonly json: string }[],
    private readonly wrap: (joined: string) => string,
  ) {}

  get pieces(): number {
    return this.value === undefined ? Math.ceil(this.rows.length / ROWS_PER_PIECE) : 0;
  }

  build(piece: number): void {
    const end = Math.min(this.rows.length, (piece + 1) * ROWS_PER_PIECE);
    for (let i = piece * ROWS_PER_PIECE; i < end; i++) void this.rows[i]?.json; // presents the row (its JSON is made on first use)
  }

  readonly text = (): string => (this.value ??= this.wrap(this.rows.map((r) => r.json).join(',')));
}

/**
 * Live frames that reach a connection while its snapshot is still being sent: kept in order and
 * written right after `snapshot:complete`, so the client sees exactly what it would have seen had
 * the snapshot gone out at once. Their bytes count against the connection's bound.
 */
export class HeldFrames<F> {
  private frames: F[] = [];
  bytes = 0;

  push(frame: F, size: number): void {
    this.frames.push(frame);
    this.bytes += size;
  }

  take(): F[] {
    const frames = this.frames;
    this.frames = [];
    this.bytes = 0;
    return frames;
  }
}
