import { describe, expect, it } from 'vitest';
import { Harness, T0, event, ml, tick } from './fixtures/builders.js';

// Issue 31: a suspended (locked) row lost its slot in the opportunity processor, so when it
// reopened the freshness ledger was handed no row before it: a first sighting. The locked row
// stayed counted beside the reopened one, and the book's rows and suspended rows grew by one
// per suspension; rows of markets the engines skip were first sightings at every change.

const counts = (h: Harness, book: string): [number, number] => {
  const f = h.processor.freshnessOf(book).prematch;
  return [f.rows, f.suspendedShare];
};

describe('the freshness ledger sees the row before each change of rows the engines do not price', () => {
  it('counts a row suspended and reopened three times as one row, suspended only while it is locked', () => {
    const h = new Harness();
    h.event(event());
    h.ticks(ml('draftkings', -120, 100));
    for (let i = 1; i <= 3; i++) {
      const at = T0 + i * 20_000;
      // A lock: the price frozen, the row suspended.
      h.ticks([tick('draftkings', 'moneyline', 'home', null, -120, { ts: at, status: 'suspended' })], at);
      expect(counts(h, 'draftkings')).toEqual([2, 0.5]);
      h.ticks([tick('draftkings', 'moneyline', 'home', null, -120, { ts: at + 10_000 })], at + 10_000);
      expect(counts(h, 'draftkings')).toEqual([2, 0]);
    }
  });

  it('counts a row of a skipped market once, and its confirmations as confirmation ages', () => {
    const h = new Harness();
    h.event(event());
    const future = (ts: number) => [tick('fanduel', 'future', 'home', null, 500, { ts })];
    h.ticks(future(T0));
    h.ticks(future(T0 + 30_000), T0 + 30_000);
    h.ticks(future(T0 + 60_000), T0 + 60_000);
    const f = h.processor.freshnessOf('fanduel').prematch;
    expect([f.rows, f.confirmationAgeSeconds]).toEqual([1, { count: 2, p50: 30, p95: 30, p99: 30 }]);
  });
});
