import { americanToDecimal } from '../../odds-math/index.js';
import { TimedHeap } from '../../timed-heap.js';
import type { Quote } from './board.js';
import { hash2 } from './prng.js';

/**
 * How long a soft book leaves a pre-game price standing once another book's price crosses it (the
 * two together an arbitrage), on average, ms. In the recordings two books' pre-match markets at
 * the same line crossed in 8 of 172,412 sightings of a pair (NFL) and 23 of 205,494 (World Cup),
 * in 20 runs, 14 of them soft book against soft book; most were gone by the next snapshot, the
 * longest stood 229 minutes. An exponential lifetime explains them best at a mean of 41 minutes
 * (NFL alone 81, World Cup 26; `npx tsx bench/pregame-steps.ts`, `bench/crossings.ts`;
 * docs/simulator.md, "Stop 56"). Without it a soft book's lean stood until its own next step, 13
 * hours on average, and one such crossing set a run's whole pre-match arbitrage rate.
 */
export const CROSSING_CORRECTED_MEAN_MS = 41 * 60_000;

/**
 * Whether another book listing the game prices the quote's market at the same line so that the
 * two books' best prices make an arbitrage: every outcome's best price between the two, implied,
 * sums under one. Outcomes are in the same order at every book (the true home side first).
 */
export function crossedByAnother(q: Quote): boolean {
  for (const r of q.peers) {
    if (r === q || r.listing.closed || !r.open || r.line !== q.line || r.lastTs === -Infinity) continue;
    let implied = 0;
    for (let i = 0; i < q.outcomes.length; i++) {
      // American prices pay in the same order as decimal ones: the higher is the better.
      implied += 1 / americanToDecimal(Math.max(q.outcomes[i]?.price ?? 100, r.outcomes[i]?.price ?? 100));
    }
    if (implied < 1) return true;
  }
  return false;
}

/** The wait before the book corrects a crossed price, ms, from a uniform draw in [0, 1). */
export function correctionDelay(u: number): number {
  return CROSSING_CORRECTED_MEAN_MS * Math.log(1 / (1 - u));
}

/**
 * A soft book's pre-game price that another book's crosses is one bettors take both sides of: the
 * book takes its lean (opinion, shaded side, wander) off it after a wait (`correctionDelay`) and
 * prices the market as it sees the game. When both books are soft each does, and the first to do
 * so ends it. Sharp books and a twin (`BookProfile.pricesWith`) carry no lean to take off. The
 * wait is hashed from the quote and the time, not drawn, so that no stream's draws move.
 */
export class CrossingCorrections {
  private readonly due = new TimedHeap<Quote>();

  /** After a reprice of the quote at `now`: its correction booked if it is crossed and none is due. */
  watch(q: Quote, now: number): void {
    const book = q.listing.book;
    if (q.correctAt !== Infinity || book.isSharp || book.pricesWith !== null || q.listing.event.status !== 'upcoming') return;
    if (!crossedByAnother(q)) return;
    q.correctAt = now + correctionDelay(hash2(q.uid, Math.floor(now)) / 4294967296);
    this.due.push(q.correctAt, q);
  }

  /** The corrections whose time has come: a price still crossed loses its lean, and `requote` reprices it. */
  takeIn(now: number, requote: (q: Quote) => void): void {
    while (this.due.peekTime() <= now) {
      const q = this.due.pop();
      if (q === undefined) return;
      q.correctAt = Infinity;
      if (q.listing.closed || !q.open || q.listing.event.status !== 'upcoming' || !crossedByAnother(q)) continue;
      q.tilt = 0;
      q.wander = 0;
      q.wanderAt = now;
      requote(q);
    }
  }
}
