import { createHash } from 'node:crypto';
import type { RecordedSnapshot } from '../pipeline/feeds/theoddsapi/index.js';
import type { Phase } from './market-stats.js';

/**
 * How late The Odds API collected each book: within one recorded snapshot, each book's listing of
 * an event carries its own `last_update`, some seconds to minutes before the snapshot. The prices
 * side by side in a snapshot are therefore each of its own moment. The benches read those delays
 * off the recordings and sample the simulator with them, so that a comparison with the recordings
 * does not mistake the source's collection for the market.
 */

/** Every book's collection delay (snapshot time − the book's `last_update`, ms) in one snapshot, per phase. */
export function collectionDelays(snapshot: RecordedSnapshot): Record<Phase, number[]> {
  const out: Record<Phase, number[]> = { prematch: [], live: [] };
  for (const event of snapshot.data) {
    if (!isRecord(event)) continue;
    const start = Date.parse(String(event['commence_time']));
    if (Number.isNaN(start)) continue;
    const phase: Phase = start <= snapshot.timestamp ? 'live' : 'prematch';
    const books = event['bookmakers'];
    if (!Array.isArray(books)) continue;
    for (const book of books) {
      if (!isRecord(book)) continue;
      const updated = Date.parse(String(book['last_update']));
      // A clock a little ahead of the snapshot's is no delay, not a negative one.
      if (!Number.isNaN(updated)) out[phase].push(Math.max(0, snapshot.timestamp - updated));
    }
  }
  return out;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Draws collection delays by resampling the recorded ones: deterministic, each draw a function of
 * the seed and what is drawn for (a snapshot time, a book, an event), so the order of the draws
 * does not matter.
 */
export class DelayResampler {
  private readonly sorted: Record<Phase, readonly number[]>;

  constructor(
    recorded: Record<Phase, readonly number[]>,
    private readonly seed: number,
  ) {
    this.sorted = { prematch: [...recorded.prematch].sort((a, b) => a - b), live: [...recorded.live].sort((a, b) => a - b) };
    for (const phase of ['prematch', 'live'] as const)
      if (this.sorted[phase].length === 0) throw new RangeError(`no recorded ${phase} collection delays to draw from`);
  }

  /** The longest delay that can be drawn, ms: older prices can no longer show in any snapshot. */
  get max(): number {
    return Math.max(this.sorted.prematch.at(-1) ?? 0, this.sorted.live.at(-1) ?? 0);
  }

  /** One recorded delay of the phase, picked by a hash of the seed and `key`. */
  draw(phase: Phase, key: string): number {
    const list = this.sorted[phase];
    const u = createHash('sha1').update(`${this.seed}|${key}`).digest().readUInt32BE(0) / 2 ** 32;
    return list[Math.floor(u * list.length)] ?? 0;
  }
}
