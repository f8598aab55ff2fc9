import { describe, expect, it } from 'vitest';
import type { Quote, SimEvent } from './board.js';
import { CROSSING_CORRECTED_MEAN_MS, CrossingCorrections, correctionDelay, crossedByAnother } from './crossing.js';
import { pregameGame as game } from './game-fixture.js';

// What went wrong: before the game a soft book's lean (its opinion, a shaded side, its wander)
// stood until the book's own next step, 13 hours on average, so a price another book's crossed
// stayed an arbitrage for the rest of a run. The recorded crossings were gone within the hour at
// the median; one such crossing set a calibration run's whole pre-match arbitrage rate
// (docs/simulator.md, "Stop 55" and "Stop 56").

const MINUTE = 60_000;

/** The book's quote of the market, priced at the line with American prices (home or over first). */
function price(ev: SimEvent, book: string, market: string, line: number | null, prices: readonly number[]): Quote {
  const q = ev.listings.find((l) => l.book.id === book)?.quotes.find((x) => x.market === market && x.period === 1);
  if (q === undefined) throw new Error(`${book} lists ${market}`);
  q.line = line;
  q.outcomes.forEach((o, i) => (o.price = prices[i] ?? 100));
  q.lastTs = 0;
  return q;
}

describe("a soft book's pre-game price beside the other books'", () => {
  it("is crossed when its best prices and another book's on the same market make an arbitrage", () => {
    const ev = game(['pinnacle', 'fanduel']);
    // FanDuel's home +110 (implied 0.476) with Pinnacle's away -105 (0.512): 0.988, an arbitrage.
    const soft = price(ev, 'fanduel', 'moneyline', null, [110, -130]);
    price(ev, 'pinnacle', 'moneyline', null, [-120, -105]);
    expect(crossedByAnother(soft)).toBe(true);
    // At -110 each way on both sides the two books leave a margin: 1.048.
    price(ev, 'fanduel', 'moneyline', null, [-110, -110]);
    price(ev, 'pinnacle', 'moneyline', null, [-110, -110]);
    expect(crossedByAnother(soft)).toBe(false);
  });

  it('is compared only with the same line, with a price the other book has set, at a book still listing the game', () => {
    const ev = game(['pinnacle', 'fanduel']);
    const soft = price(ev, 'fanduel', 'total_points', 5.5, [120, -110]);
    const sharp = price(ev, 'pinnacle', 'total_points', 6.5, [-130, 120]);
    // Under 6.5 at +120 and over 5.5 at +120 are no arbitrage: a game with six goals loses both.
    expect(crossedByAnother(soft)).toBe(false);
    sharp.line = 5.5;
    expect(crossedByAnother(soft)).toBe(true);
    sharp.lastTs = -Infinity;
    expect(crossedByAnother(soft)).toBe(false);
    sharp.lastTs = 0;
    sharp.listing.closed = true;
    expect(crossedByAnother(soft)).toBe(false);
  });

  it('is corrected after an exponential wait with the recorded mean: 41 minutes, 28.4 at the median', () => {
    expect(CROSSING_CORRECTED_MEAN_MS).toBe(41 * MINUTE);
    expect(correctionDelay(0)).toBe(0);
    expect(correctionDelay(0.5) / MINUTE).toBeCloseTo(41 * Math.LN2, 9);
  });
});

describe('a crossed soft price before the game', () => {
  /** FanDuel's moneyline crossed by Pinnacle's at time 0, with a lean of its own; its correction watched from then. */
  function crossed(): { ev: SimEvent; soft: Quote; corrections: CrossingCorrections } {
    const ev = game(['pinnacle', 'fanduel']);
    const soft = price(ev, 'fanduel', 'moneyline', null, [110, -130]);
    price(ev, 'pinnacle', 'moneyline', null, [-120, -105]);
    soft.tilt = 0.02;
    soft.wander = 0.004;
    const corrections = new CrossingCorrections();
    corrections.watch(soft, 0);
    return { ev, soft, corrections };
  }

  it('loses its lean at its correction, once, and is requoted', () => {
    const { soft, corrections } = crossed();
    expect(soft.correctAt).toBeGreaterThan(0);
    expect(soft.correctAt).toBeLessThan(Infinity);
    const requoted: Quote[] = [];
    corrections.takeIn(soft.correctAt - 1, (q) => requoted.push(q));
    expect(requoted).toEqual([]);
    expect(soft.tilt).toBe(0.02);
    const at = soft.correctAt;
    corrections.takeIn(at, (q) => requoted.push(q));
    expect(requoted).toEqual([soft]);
    expect([soft.tilt, soft.wander, soft.wanderAt, soft.correctAt]).toEqual([0, 0, at, Infinity]);
  });

  it('keeps its lean when the crossing is gone by then, and books no second correction while one is due', () => {
    const { ev, soft, corrections } = crossed();
    const at = soft.correctAt;
    corrections.watch(soft, 1_000);
    expect(soft.correctAt).toBe(at);
    price(ev, 'pinnacle', 'moneyline', null, [-105, -115]);
    const requoted: Quote[] = [];
    corrections.takeIn(at, (q) => requoted.push(q));
    expect(requoted).toEqual([]);
    expect([soft.tilt, soft.correctAt]).toEqual([0.02, Infinity]);
  });

  it('is left alone at a sharp book, at a twin, and once the game is on', () => {
    const ev = game(['pinnacle', 'fanduel', 'betonlineag']);
    const soft = price(ev, 'fanduel', 'moneyline', null, [110, -130]);
    const sharp = price(ev, 'pinnacle', 'moneyline', null, [-120, -105]);
    const twin = price(ev, 'betonlineag', 'moneyline', null, [-120, 120]);
    const corrections = new CrossingCorrections();
    for (const q of [sharp, twin]) {
      expect(crossedByAnother(q)).toBe(true);
      corrections.watch(q, 0);
      expect(q.correctAt).toBe(Infinity);
    }
    ev.status = 'live';
    corrections.watch(soft, 0);
    expect(soft.correctAt).toBe(Infinity);
  });
});
