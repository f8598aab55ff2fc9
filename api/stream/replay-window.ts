import { encode, frameChars } from './frames.js';
import type { FrameText, Rendered } from './frames.js';

export interface ReplayWindowOptions {
  /** Most sequence numbers kept; the oldest go first. */
  maxFrames: number;
  /** Frames older than this (wall time) go on the next append. */
  maxAgeMs: number;
  /** Characters of frame text kept (see `frameChars`; a byte each for ASCII); the oldest go first. */
  maxBytes: number;
}

interface Entry<G> {
  seq: number;
  at: number;
  frames: Map<G, FrameText> | null;
  bytes: number;
}

/**
 * The recent frames of a hub by sequence number, each kept once per subscriber group that got it
 * (what the live connections were sent, encoded again for a replay: see `FrameText` for why
 * neither the bytes nor the text). Every sequence number has an entry, so a
 * position N is answerable exactly when N is at or after `floor`: replaying is then the entries
 * after N in order, for the caller's group.
 */
export class ReplayWindow<G> {
  private entries: Entry<G>[] = [];
  private head = 0;
  private bytes = 0;
  /** Every frame after this sequence number is still here. */
  floor: number;

  constructor(
    start: number,
    private readonly options: ReplayWindowOptions,
    private readonly now: () => number = Date.now,
  ) {
    this.floor = start;
  }

  get size(): number {
    return this.entries.length - this.head;
  }

  /** Records sequence `seq` (the next one) with the frames rendered for it. */
  append(seq: number, frames: Map<G, FrameText> | null): void {
    const at = this.now();
    let bytes = 0;
    for (const f of frames?.values() ?? []) bytes += frameChars(f);
    this.entries.push({ seq, at, frames, bytes });
    this.bytes += bytes;
    const tooOld = at - this.options.maxAgeMs;
    while (
      this.size > this.options.maxFrames ||
      (this.size > 0 && ((this.entries[this.head] as Entry<G>).at < tooOld || this.bytes > this.options.maxBytes))
    ) {
      this.floor = (this.entries[this.head] as Entry<G>).seq;
      this.bytes -= (this.entries[this.head] as Entry<G>).bytes;
      this.entries[this.head] = undefined as unknown as Entry<G>;
      this.head++;
    }
    if (this.head > 4096 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }

  /** Visits the frames `group` got after `after`, in order, as bytes. The caller checked `after >= floor`. */
  forEachAfter(after: number, group: G, visit: (seq: number, frame: Rendered) => void): void {
    const first = this.head + Math.max(0, after - this.floor);
    for (let i = first; i < this.entries.length; i++) {
      const e = this.entries[i] as Entry<G>;
      if (e.seq <= after) continue;
      const f = e.frames?.get(group);
      if (f) visit(e.seq, encode(f));
    }
  }
}
