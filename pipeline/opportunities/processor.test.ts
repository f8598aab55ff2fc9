import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DEFAULT_LOW_HOLD_PERCENT, oddsRowKey } from '../../schemas/index.js';
import type { EvOpportunity, OddsChange, OddsTick, Opportunity, OpportunityChange } from '../../schemas/index.js';
import { SnapshotProcessor } from '../snapshot/index.js';
import { OpportunityProcessor } from './processor.js';
import { fingerprint } from './lifecycle.js';
import { opportunityRecords } from './records.js';
import { EVENT_ID, Harness, T0, event, ml, only, tick, totals } from './fixtures/builders.js';

const kinds = (changes: readonly OpportunityChange[]): string[] => evOnly(changes).map((c) => `${c.type}:${c.opportunity.kind}`);
/** The lifecycle tests follow the +EV opportunity; the same prices also make low-hold markets. */
const evOnly = (changes: readonly OpportunityChange[]): OpportunityChange[] => changes.filter((c) => c.opportunity.kind === 'ev');

describe('opportunity lifecycle', () => {
  it('creates, updates with detected_at and the peak kept, and expires when the edge is gone', () => {
    const h = new Harness();
    h.event(event());
    expect(kinds(h.ticks(ml('pinnacle', -110, -110)))).toEqual([]);
    expect(kinds(h.ticks([tick('draftkings', 'moneyline', 'away', null, 110)], T0 + 1000))).toEqual(['create:ev']);
    const first = only(h.active('ev')) as EvOpportunity;
    expect([first.detectedAt, first.value, first.peakValue]).toEqual([T0 + 1000, 5, 5]);

    const moved = h.ticks([tick('draftkings', 'moneyline', 'away', null, 104, { ts: T0 + 2000 })], T0 + 2000);
    expect(kinds(moved)).toEqual(['update:ev']);
    const second = only(h.active('ev')) as EvOpportunity;
    expect([second.id, second.detectedAt, second.lastSeenAt, second.value, second.peakValue]).toEqual([
      first.id,
      T0 + 1000,
      T0 + 2000,
      2,
      5,
    ]);
    expect(second.peakEvPercent.power).toBe(5);

    const gone = h.ticks([tick('draftkings', 'moneyline', 'away', null, -105, { ts: T0 + 3000 })], T0 + 3000);
    expect(evOnly(gone).map((c) => [c.type, c.opportunity.id, c.opportunity.expiredAt, c.opportunity.expireReason])).toEqual([
      ['expire', first.id, T0 + 3000, 'condition'],
    ]);
    expect(h.active('ev')).toEqual([]);
  });

  it('expires with leg_removed when a price it used is suspended', () => {
    const h = new Harness();
    h.event(event());
    h.ticks([...ml('pinnacle', -110, -110), tick('draftkings', 'moneyline', 'away', null, 110)]);
    const out = h.ticks([tick('pinnacle', 'moneyline', 'home', null, null)], T0 + 5000);
    expect(evOnly(out).map((c) => [c.type, c.opportunity.kind, c.opportunity.expireReason])).toEqual([['expire', 'ev', 'leg_removed']]);
  });

  it('re-emits a confirmation (newer time, same price) and ignores an exact repeat', () => {
    const h = new Harness();
    h.event(event());
    h.ticks([...ml('pinnacle', -110, -110), tick('draftkings', 'moneyline', 'away', null, 110)]);
    expect(h.ticks([tick('draftkings', 'moneyline', 'away', null, 110)], T0 + 10)).toEqual([]);
    const confirmed = h.ticks([tick('pinnacle', 'moneyline', 'home', null, -110, { ts: T0 + 500 })], T0 + 500);
    expect(kinds(confirmed)).toEqual(['update:ev']);
    expect((only(h.active('ev')) as EvOpportunity).oldestOddsTs).toBe(T0);
  });

  it('waits for the event before computing, then computes every family', () => {
    const h = new Harness();
    expect(h.ticks([...ml('pinnacle', -110, -110), tick('draftkings', 'moneyline', 'away', null, 110)])).toEqual([]);
    expect(kinds(h.event(event()))).toEqual(['create:ev']);
  });

  it('expires everything of an event that ended, and of an event long past its start', () => {
    const h = new Harness();
    h.event(event());
    h.ticks([...ml('pinnacle', -110, -110), tick('draftkings', 'moneyline', 'away', null, 110), ...totals('pinnacle', 220.5, -104, -104)]);
    const ended = h.event(event({ status: 'final', updatedAt: T0 + 1 }), T0 + 1);
    expect(new Set(ended.map((c) => `${c.type}:${c.opportunity.kind}:${c.opportunity.expireReason}`))).toEqual(
      new Set(['expire:ev:event_closed', 'expire:low_hold:event_closed']),
    );
    expect(h.processor.size).toBe(0);

    const old = new Harness({ retainAfterStartMs: 1000 });
    old.event(event());
    old.ticks([...ml('pinnacle', -110, -110), tick('draftkings', 'moneyline', 'away', null, 110)]);
    const late = event().startTime + 2000;
    let evicted: OpportunityChange[] = [];
    for (let i = 0; i < 10_000 && evicted.length === 0; i++)
      evicted = old.ticks([tick('fanduel', 'moneyline', 'home', null, -120 - (i % 2), { eventId: 'other', ts: late + i })], late + i);
    expect(new Set(evicted.map((c) => c.opportunity.expireReason))).toEqual(new Set(['event_closed']));
    expect(old.processor.eventCount).toBe(1);
  });

  it('sends an expiry as the final version followed by a tombstone, partitioned by event', () => {
    const h = new Harness();
    h.event(event());
    h.ticks([...ml('pinnacle', -110, -110), tick('draftkings', 'moneyline', 'away', null, 110)]);
    const out = h.ticks([tick('draftkings', 'moneyline', 'away', null, -120)], T0 + 1);
    const records = opportunityRecords(evOnly(out));
    expect(records.map((r) => [r.key, r.partitionKey, r.value === null ? null : r.value.expiredAt])).toEqual([
      [evOnly(out)[0]?.opportunity.id, EVENT_ID, T0 + 1],
      [evOnly(out)[0]?.opportunity.id, EVENT_ID, null],
    ]);
  });
});

// A small universe so that random sequences hit the same rows often: three books (one sharp),
// moneyline and totals at two lines, prices that are sometimes +EV, arbitrage or low-hold.
const BOOKS = ['pinnacle', 'draftkings', 'fanduel'] as const;
const tickArb = fc.record({
  book: fc.constantFrom(...BOOKS),
  kind: fc.constantFrom('ml-home', 'ml-away', 'over', 'under'),
  line: fc.constantFrom(220.5, 223.5),
  price: fc.option(fc.constantFrom(-130, -115, -110, -105, 100, 105, 110, 125), { nil: null, freq: 6 }),
  dt: fc.integer({ min: 0, max: 30_000 }),
});

interface Step {
  book: string;
  kind: string;
  line: number;
  price: number | null;
  dt: number;
}

function toTick(t: Step, ts: number): OddsTick {
  switch (t.kind) {
    case 'ml-home':
      return tick(t.book, 'moneyline', 'home', null, t.price, { ts });
    case 'ml-away':
      return tick(t.book, 'moneyline', 'away', null, t.price, { ts });
    case 'over':
      return tick(t.book, 'total_points', 'over', t.line, t.price, { ts });
    default:
      return tick(t.book, 'total_points', 'under', t.line, t.price, { ts });
  }
}

/**
 * Runs the steps; returns the harness and the final board (latest open tick per row, with the
 * change time its row got: a confirmation keeps the time the price last moved, which the tick
 * alone does not say and the confidence score reads).
 */
function play(steps: readonly Step[]): { h: Harness; board: OddsTick[]; now: number } {
  const h = new Harness();
  h.event(event());
  const rows = new SnapshotProcessor();
  const board = new Map<string, OddsTick>();
  let now = T0;
  for (const s of steps) {
    now += s.dt;
    const t = toTick(s, now);
    h.ticks([t], now);
    const row = rows.handle(t, now)?.row;
    if (t.priceAmerican === null) board.delete(oddsRowKey(t));
    else if (row) board.set(oddsRowKey(t), { ...t, oddsChangedAt: row.oddsChangedAt });
  }
  return { h, board: [...board.values()], now };
}

describe('properties', () => {
  it('incremental recomputation equals recomputing everything from the final board', () => {
    fc.assert(
      fc.property(fc.array(tickArb, { minLength: 1, maxLength: 60 }), (steps) => {
        const { h, board, now } = play(steps);
        const fresh = new Harness();
        fresh.ticks(board, now);
        fresh.event(event(), now);
        const view = (list: Opportunity[]): string[] => list.map((o) => fingerprint(o)).sort();
        expect(view(h.active())).toEqual(view(fresh.active()));
      }),
      { numRuns: 150 },
    );
  });

  it('a batch ends in the same state as its inputs one at a time', () => {
    fc.assert(
      fc.property(fc.array(tickArb, { minLength: 1, maxLength: 60 }), fc.integer({ min: 1, max: 20 }), (steps, size) => {
        const { now } = play(steps);
        const batched = new OpportunityProcessor({ bookScopes: [['draftkings', 'fanduel']] });
        const single = new OpportunityProcessor({ bookScopes: [['draftkings', 'fanduel']] });
        const snapshot = new SnapshotProcessor();
        batched.handle({ type: 'event', event: event() }, T0);
        single.handle({ type: 'event', event: event() }, T0);
        let t = T0;
        const changes: OddsChange[] = [];
        for (const s of steps) {
          t += s.dt;
          const c = snapshot.handle(toTick(s, t), t);
          if (c) changes.push(c);
        }
        for (let i = 0; i < changes.length; i += size)
          batched.handleBatch(
            changes.slice(i, i + size).map((change) => ({ type: 'odds' as const, change })),
            now,
          );
        for (const change of changes) single.handle({ type: 'odds', change }, now);
        const view = (list: Opportunity[]): string[] => list.map((o) => fingerprint(o)).sort();
        expect(view(batched.active())).toEqual(view(single.active()));
      }),
      { numRuns: 100 },
    );
  });

  it('is deterministic: the same sequence gives the same changes', () => {
    fc.assert(
      fc.property(fc.array(tickArb, { minLength: 1, maxLength: 40 }), (steps) => {
        const run = (): string => JSON.stringify(play(steps).h.log);
        expect(run()).toEqual(run());
      }),
      { numRuns: 50 },
    );
  });

  it('every active opportunity holds its condition; every +EV book is absent from its references', () => {
    fc.assert(
      fc.property(fc.array(tickArb, { minLength: 1, maxLength: 60 }), (steps) => {
        const { h } = play(steps);
        for (const o of h.active()) {
          const sum = o.legs.reduce(
            (acc, l) => acc + 1 / (l.priceAmerican > 0 ? 1 + l.priceAmerican / 100 : 1 + 100 / -l.priceAmerican),
            0,
          );
          if (o.kind === 'arbitrage') expect(sum).toBeLessThan(1);
          if (o.kind === 'low_hold') expect(1 - 1 / sum).toBeLessThanOrEqual(DEFAULT_LOW_HOLD_PERCENT / 100 + 1e-12);
          if (o.kind === 'ev') {
            expect(Object.values(o.methods).some((m) => m.evPercent >= 0)).toBe(true);
            expect(o.sharpBooks).not.toContain(o.book);
            expect(o.legs.reduce((acc, l) => acc + l.stakeShare, 0)).toBe(1);
          } else {
            expect(o.legs.reduce((acc, l) => acc + l.stakeShare, 0)).toBeCloseTo(1, 5);
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});
