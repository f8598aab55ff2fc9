import { describe, expect, it } from 'vitest';
import type { EvOpportunity, OddsTick, OpportunityChange } from '../../schemas/index.js';
import { Harness, T0, event, ml, tick, totals } from './fixtures/builders.js';
import { DEFAULT_PHANTOM_POLICY, phantomWarnings } from './phantom.js';

// Issue 31: a record took its stale clock from its books' thresholds when it was built and kept
// it until its inputs changed. A quiet line built during the freshness ledger's warm-up (the 60-s
// floor) stayed "stale" long after its books' thresholds had risen to minutes; and a record built
// under a high threshold stayed "fresh" after the threshold fell below its age. Thresholds move,
// and verdicts are judged, when the observed time enters a new 10-s step (the ledger's
// recomputeMs), from the rows observed before it.

/** Prices of another event (no event record, so no opportunities): they only teach the ledger each book's cadence. */
function cadence(books: readonly string[], rows: number, ts: number, players = 'player'): OddsTick[] {
  const out: OddsTick[] = [];
  for (const book of books)
    for (let i = 0; i < rows; i++)
      out.push(
        tick(book, 'player_prop', 'over', 20.5, -110, {
          eventId: 'other-event',
          participant: `${players}-${i}`,
          statCategory: 'points',
          ts,
        }),
      );
  return out;
}

const BOOKS = ['pinnacle', 'draftkings'];

/** The quiet +EV record: DraftKings' away price against Pinnacle's market, every price set at `ts`. */
const quiet = (h: Harness): EvOpportunity | undefined =>
  h.active('ev').find((o): o is EvOpportunity => o.kind === 'ev' && o.book === 'draftkings' && o.selection === 'away');

/** A +EV price of the same books in another market of the event, built at `ts`. */
const newTotals = (ts: number): OddsTick[] => [
  ...totals('pinnacle', 220.5, -110, -110, { ts }),
  tick('draftkings', 'total_points', 'over', 220.5, 105, { ts }),
];

const updatesOf = (changes: readonly OpportunityChange[], id: string): OpportunityChange[] =>
  changes.filter((c) => c.type === 'update' && c.opportunity.id === id);

const verdict = (o: EvOpportunity | undefined): unknown[] => [
  o?.freshUntil,
  o?.staleAfterSeconds,
  o?.possiblyStale,
  o?.warnings,
  o?.oldestOddsAgeSeconds,
  o?.lastSeenAt,
];

/** A harness holding the quiet line, built at T0 with no confirmation ages yet (the 60-s floor). */
function quietLineAtWarmUp(): Harness {
  const h = new Harness();
  h.event(event());
  h.ticks(cadence(BOOKS, 260, T0), T0);
  h.ticks([...ml('pinnacle', -110, -110), tick('draftkings', 'moneyline', 'away', null, 110)], T0);
  return h;
}

describe('stale verdicts follow the book’s current threshold', () => {
  it('no longer flags a quiet line built during the warm-up once its books’ thresholds have risen', () => {
    const h = quietLineAtWarmUp();
    const built = quiet(h);
    // No confirmation ages yet: the 60-s floor.
    expect(verdict(built)).toEqual([T0 + 60_000, 60, false, ['SINGLE_SHARP_REF'], 0, T0]);

    // 150 s on, every other price confirmed (260 ages of 150 s per book): the quiet line's own
    // clock has run out, and the step they came in was entered before them: still 60 s.
    const later = T0 + 150_000;
    const confirmed = h.ticks(cadence(BOOKS, 260, later), later);
    expect(updatesOf(confirmed, built?.id ?? '')).toEqual([]);
    // The next step (a price at 160 s) moves their thresholds to 2 × p95 = 300 s: the quiet line's
    // record is re-timed in that batch, fresh until 300 s after its prices.
    const next = T0 + 160_000;
    const out = h.ticks(newTotals(next), next);
    expect(updatesOf(out, built?.id ?? '').length).toBe(1);
    const retimed = quiet(h);
    expect(verdict(retimed)).toEqual([T0 + 300_000, 300, false, ['SINGLE_SHARP_REF'], 160, next]);
    // Only the clock moved: the prices, the values and the detection time are the ones built at T0.
    expect([retimed?.detectedAt, retimed?.oldestOddsTs, retimed?.priceAmerican, retimed?.methods.power.evPercent]).toEqual([
      T0,
      T0,
      110,
      built?.methods.power.evPercent,
    ]);
  });

  it('keeps a record fresh when its own clock runs out after its books’ thresholds rose past its age', () => {
    const h = quietLineAtWarmUp();
    const id = quiet(h)?.id ?? '';
    // Ages of 40 s, taken in at the step of 50 s: 80-s thresholds while the record still has
    // 10 s on its own 60-s clock, so nothing changes for it yet.
    h.ticks(cadence(BOOKS, 260, T0 + 40_000), T0 + 40_000);
    expect(updatesOf(h.ticks(newTotals(T0 + 50_000), T0 + 50_000), id)).toEqual([]);
    // The step of 60 s (a price of another event) finds it fresh still (its clock runs to 60 s exactly): no version.
    expect(updatesOf(h.ticks(cadence(['fanduel'], 1, T0 + 61_000), T0 + 61_000), id)).toEqual([]);
    // The first step after its own clock ran out (70 s) re-times it on today's 80 s.
    const out = h.ticks(cadence(['fanduel'], 1, T0 + 70_000), T0 + 70_000);
    expect(updatesOf(out, id).length).toBe(1);
    expect(verdict(quiet(h))).toEqual([T0 + 80_000, 80, false, ['SINGLE_SHARP_REF'], 70, T0 + 70_000]);
  });

  it('flags a record built under a high threshold once the threshold falls below its age', () => {
    const h = new Harness();
    h.event(event());
    // Confirmation ages of 200 s: a threshold of 400 s from the next step (the record's, at 1,000 s).
    h.ticks(cadence(BOOKS, 260, T0), T0);
    h.ticks(cadence(BOOKS, 260, T0 + 200_000), T0 + 200_000);
    const built = T0 + 1_000_000;
    h.ticks([...ml('pinnacle', -110, -110, { ts: built }), tick('draftkings', 'moneyline', 'away', null, 110, { ts: built })], built);
    expect(verdict(quiet(h))).toEqual([built + 400_000, 400, false, ['SINGLE_SHARP_REF'], 0, built]);

    // Past the 15-minute window of those ages, the books confirm every 20 s: 2 × p95 = 40 s, so
    // the 60-s floor, from the step after (180 s). At 180 s old the quiet line is past it, and is
    // flagged in that step.
    const fast = built + 150_000;
    h.ticks(cadence(BOOKS, 260, fast, 'fast'), fast);
    h.ticks(cadence(BOOKS, 260, fast + 20_000, 'fast'), fast + 20_000);
    const now = fast + 30_000;
    const out = h.ticks(newTotals(now), now);
    expect(updatesOf(out, quiet(h)?.id ?? '').length).toBe(1);
    expect(verdict(quiet(h))).toEqual([built + 60_000, 60, true, ['POTENTIALLY_STALE_ODDS', 'SINGLE_SHARP_REF'], 180, now]);
  });

  it('keeps a record stale by both clocks out of VERY_STALE_ODDS until it is very stale under today’s threshold', () => {
    const h = quietLineAtWarmUp();
    const id = quiet(h)?.id ?? '';
    // Ages of 40 s, taken in at the step of 100 s: 80-s thresholds. The record is 100 s old, stale by its
    // own 60-s clock and by today's: its stale verdict stands, nothing changes.
    h.ticks(cadence(BOOKS, 260, T0 + 40_000), T0 + 40_000);
    expect(updatesOf(h.ticks(newTotals(T0 + 100_000), T0 + 100_000), id)).toEqual([]);
    const built = quiet(h);
    // At 130 s its own clock calls it very stale (60 s + 60 s, at the default factor of 2), today's
    // not before 160 s (80 s + 80 s): the API would have dropped it from the default lists at 120 s.
    const now = T0 + 130_000;
    expect(built && phantomWarnings(built, now, DEFAULT_PHANTOM_POLICY)).toEqual(['VERY_STALE_ODDS']);
    const out = h.ticks([tick('fanduel', 'moneyline', 'home', null, -130, { ts: now })], now);
    expect(updatesOf(out, id).length).toBe(1);
    const retimed = quiet(h);
    expect(verdict(retimed)).toEqual([T0 + 80_000, 80, true, ['POTENTIALLY_STALE_ODDS', 'SINGLE_SHARP_REF'], 130, now]);
    expect(retimed && phantomWarnings(retimed, now, DEFAULT_PHANTOM_POLICY)).toEqual([]);
    expect(retimed && phantomWarnings(retimed, T0 + 161_000, DEFAULT_PHANTOM_POLICY)).toEqual(['VERY_STALE_ODDS']);
    // Very stale by both clocks from 160 s on: no further version.
    expect(updatesOf(h.ticks([tick('fanduel', 'moneyline', 'home', null, -125, { ts: T0 + 161_000 })], T0 + 161_000), id)).toEqual([]);
  });

  it('holds no more records for a later look than twice the active ones and a fixed slack, however often they are rebuilt', () => {
    const h = new Harness();
    h.event(event());
    h.ticks(ml('pinnacle', -110, -110));
    for (let i = 1; i <= 3000; i++) h.ticks([tick('draftkings', 'moneyline', 'away', null, 110 + (i % 2), { ts: T0 + i })], T0 + i);
    // The +EV price and the low-hold market of the same prices.
    expect(h.processor.size).toBe(2);
    expect(h.processor.verdictsHeld).toBeLessThanOrEqual(2 * 2 + 1024 + 1);
  });
});
