import { describe, expect, it } from 'vitest';
import type { EvOpportunity, GameState, OddsTick, OpportunityChange } from '../../schemas/index.js';
import { gc } from '../../test/support/gc.js';
import { deVigPower } from '../odds-math/index.js';
import { OpportunityProcessor } from '../opportunities/index.js';
import { EVENT_ID, T0, event, ml, spread } from '../opportunities/fixtures/builders.js';
import { SnapshotProcessor } from '../snapshot/index.js';
import { ClosingProcessor, MAX_ENTRIES_PER_EVENT, settle } from './processor.js';
import type { ClosingOutput } from './processor.js';

const START = event().startTime;
const dec = (a: number): number => (a > 0 ? 1 + a / 100 : 1 + 100 / -a);

/** Ticks through the real snapshot and opportunity processors into the closing processor. */
function harness(): {
  feed(ticks: OddsTick[], now: number): ClosingOutput;
  event(over: Parameters<typeof event>[0], now: number): ClosingOutput;
  final(home: number, away: number, now: number): ClosingOutput;
  closing: ClosingProcessor;
} {
  const snapshot = new SnapshotProcessor();
  const opportunities = new OpportunityProcessor({ referenceBooks: ['pinnacle'], fallbackReferenceBooks: [] });
  const closing = new ClosingProcessor({ referenceBooks: ['pinnacle'], fallbackReferenceBooks: [] });
  const merge = (a: ClosingOutput, b: ClosingOutput): ClosingOutput => ({
    closing: [...a.closing, ...b.closing],
    grades: [...a.grades, ...b.grades],
    entries: [...a.entries, ...b.entries],
  });
  const opps = (changes: OpportunityChange[], now: number): ClosingOutput =>
    closing.handleBatch(
      changes.map((c) => ({ type: 'opportunity' as const, opportunity: c.opportunity })),
      now,
    );
  return {
    closing,
    feed(ticks, now) {
      let out: ClosingOutput = { closing: [], grades: [], entries: [] };
      for (const t of ticks) {
        const change = snapshot.handle(t, now);
        if (!change) continue;
        out = merge(out, closing.handleBatch([{ type: 'odds', change }], now));
        out = merge(out, opps(opportunities.handle({ type: 'odds', change }, now), now));
      }
      return out;
    },
    event(over, now) {
      const e = event(over);
      return merge(
        closing.handleBatch([{ type: 'event', event: e }], now),
        opps(opportunities.handle({ type: 'event', event: e }, now), now),
      );
    },
    final(home, away, now) {
      const state: GameState = {
        eventId: EVENT_ID,
        sport: 'basketball',
        league: 'nba',
        homeTeamId: 'h',
        awayTeamId: 'a',
        status: 'final',
        homeScore: home,
        awayScore: away,
        period: 'FT',
        clock: null,
        possession: null,
        server: null,
        lastPlay: null,
        extras: {},
        primaryBook: 'pinnacle',
        bookCount: 2,
        updatedAt: now,
      };
      return closing.handleBatch([{ type: 'gamestate', state }], now);
    },
  };
}

describe('closing lines', () => {
  it('closes every book at its last pre-match price when the event goes live, with the reference no-vig by method', () => {
    const h = harness();
    h.event({}, T0);
    h.feed([...ml('pinnacle', -150, 130), ...ml('draftkings', -140, 120)], T0);
    h.feed([...ml('pinnacle', -160, 140)], T0 + 60_000);
    expect(h.closing.closingOf(EVENT_ID)).toEqual([]);
    const out = h.event({ status: 'live', isLive: true, updatedAt: START }, START);
    const fair = deVigPower([dec(-160), dec(140)]);
    expect(out.closing.map((c) => `${c.book}|${c.selection}|${c.priceAmerican}`).sort()).toEqual([
      'draftkings|away|120',
      'draftkings|home|-140',
      'pinnacle|away|140',
      'pinnacle|home|-160',
    ]);
    const dkHome = out.closing.find((c) => c.book === 'draftkings' && c.selection === 'home');
    expect(dkHome?.noVig.power).toBeCloseTo(fair[0] ?? 0, 6);
    expect(dkHome?.referenceBooks).toEqual(['pinnacle']);
    expect(dkHome?.bookNoVigProbability).toBeCloseTo(deVigPower([dec(-140), dec(120)])[0] ?? 0, 6);
    expect(dkHome?.capturedAt).toBe(START);
  });

  it('keeps what books pull at kickoff, drops lines pulled before the start, and ignores in-play prices', () => {
    const h = harness();
    h.event({}, T0);
    h.feed(
      [...spread('pinnacle', -3.5, -110, -110), ...spread('draftkings', -3.5, -105, -115), ...spread('draftkings', -4, -100, -120)],
      T0,
    );
    h.feed(spread('draftkings', -4, null, null), T0 + 60_000); // pulled an hour before the start
    h.feed(spread('draftkings', -3.5, null, null), START); // pulled at kickoff
    h.feed(spread('pinnacle', -3.5, -200, 160, { isLive: true, ts: START + 1 }), START + 1);
    const lines = h.closing
      .closingOf(EVENT_ID)
      .map((c) => `${c.book}|${c.selection}|${c.line}|${c.priceAmerican}`)
      .sort();
    expect(lines).toEqual(['draftkings|away|3.5|-115', 'draftkings|home|-3.5|-105', 'pinnacle|away|3.5|-110', 'pinnacle|home|-3.5|-110']);
  });

  it('captures nothing for a postponed event', () => {
    const h = harness();
    h.event({}, T0);
    h.feed(ml('pinnacle', -150, 130), T0);
    h.event({ status: 'postponed', updatedAt: START }, START);
    expect(h.closing.closingOf(EVENT_ID)).toEqual([]);
  });
});

describe('closing-line value', () => {
  it('grades +EV detected before the start at its entry price against the close, then settles it on the final score', () => {
    const h = harness();
    h.event({}, T0);
    h.feed(ml('pinnacle', -150, 130), T0);
    // DraftKings at +150 on the away side: +EV against Pinnacle's fair price.
    const detected = h.feed(ml('draftkings', -190, 150), T0 + 1000);
    expect(detected.grades).toEqual([]);
    h.feed(ml('draftkings', -180, 145), T0 + 2000); // same opportunity, a later price: the entry stays +150
    h.feed(ml('pinnacle', -130, 110), T0 + 3000); // the market moved toward the away side
    const out = h.event({ status: 'live', isLive: true, updatedAt: START }, START);
    const close = deVigPower([dec(-130), dec(110)])[1] ?? 0;
    expect(out.grades).toHaveLength(1);
    const g = out.grades[0];
    expect(g?.selection).toBe('away');
    expect(g?.priceAmerican).toBe(150);
    expect(g?.detectedAt).toBe(T0 + 1000);
    expect(g?.closingNoVigProbability).toBeCloseTo(close, 6);
    expect(g?.clvPercent).toBeCloseTo((close * 2.5 - 1) * 100, 3);
    expect(g?.closingPriceAmerican).toBe(145);
    expect(g?.closingDevigBook).toBe('pinnacle');
    expect(g?.result).toBeNull();
    const settled = h.final(101, 104, START + 3 * 3600_000);
    expect(settled.grades.map((x) => [x.opportunityId, x.result])).toEqual([[g?.opportunityId, 'win']]);
  });

  it('does not grade an opportunity detected in play', () => {
    const h = harness();
    h.event({ status: 'live', isLive: true }, START);
    const out = h.feed([...ml('pinnacle', -150, 130, { isLive: true }), ...ml('draftkings', -190, 150, { isLive: true })], START + 1000);
    expect(out.grades).toEqual([]);
  });
});

describe('what it keeps of a +EV opportunity until the close', () => {
  /** A +EV opportunity as the opportunity processor publishes it: DraftKings' away side at +150. */
  function detectedEv(): EvOpportunity {
    const snapshot = new SnapshotProcessor();
    const opportunities = new OpportunityProcessor({ referenceBooks: ['pinnacle'], fallbackReferenceBooks: [] });
    opportunities.handle({ type: 'event', event: event() }, T0);
    const changes = [...ml('pinnacle', -150, 130), ...ml('draftkings', -190, 150)].flatMap((t) => {
      const change = snapshot.handle(t, T0 + 1000);
      return change ? opportunities.handle({ type: 'odds', change }, T0 + 1000) : [];
    });
    const ev = changes.map((c) => c.opportunity).find((o): o is EvOpportunity => o.kind === 'ev');
    if (!ev) throw new Error('the fixture detects +EV');
    // A copy, as a record read from the bus is: the processor that made it keeps its own.
    return structuredClone(ev);
  }

  it('lets the whole record go once taken in, and grades from what it kept', async () => {
    const closing = new ClosingProcessor({ referenceBooks: ['pinnacle'], fallbackReferenceBooks: [] });
    closing.handleBatch([{ type: 'event', event: event() }], T0);
    let handed: EvOpportunity | null = detectedEv();
    const { id, detectedAt, priceAmerican } = handed;
    const record = new WeakRef(handed);
    closing.handleBatch([{ type: 'opportunity', opportunity: handed }], T0 + 1000);
    handed = null;
    // A WeakRef holds its target to the end of the current job.
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    expect(record.deref()).toBeUndefined();
    const out = closing.handleBatch([{ type: 'event', event: event({ status: 'live', isLive: true, updatedAt: START }) }], START);
    expect(out.grades.map((g) => [g.opportunityId, g.detectedAt, g.priceAmerican, g.league, g.eventStartTime])).toEqual([
      [id, detectedAt, priceAmerican, 'nba', START],
    ]);
  });

  it('keeps at most MAX_ENTRIES_PER_EVENT occurrences per event, and counts the ones past it', () => {
    const closing = new ClosingProcessor({ referenceBooks: ['pinnacle'], fallbackReferenceBooks: [] });
    const ev = detectedEv();
    const occurrences = Array.from({ length: MAX_ENTRIES_PER_EVENT + 2 }, (_, i) => ({
      type: 'opportunity' as const,
      opportunity: { ...ev, detectedAt: T0 + i },
    }));
    const out = closing.handleBatch(occurrences, T0);
    expect(out.entries).toHaveLength(MAX_ENTRIES_PER_EVENT);
    expect(closing.counters.entriesOverCap).toBe(2);
  });
});

describe('settling on the final score', () => {
  it('settles full-game moneylines, spreads and totals, and leaves other markets unsettled', () => {
    const final = { home: 24, away: 21 };
    expect(settle({ market: 'moneyline', selection: 'home', line: null }, final)).toBe('win');
    expect(settle({ market: 'moneyline', selection: 'away', line: null }, final)).toBe('loss');
    expect(settle({ market: 'moneyline', selection: 'draw', line: null }, { home: 1, away: 1 })).toBe('win');
    expect(settle({ market: 'point_spread', selection: 'home', line: -3 }, final)).toBe('push');
    expect(settle({ market: 'point_spread', selection: 'away', line: 3.5 }, final)).toBe('win');
    expect(settle({ market: 'total_points', selection: 'over', line: 44.5 }, final)).toBe('win');
    expect(settle({ market: 'total_points', selection: 'under', line: 45 }, final)).toBe('push');
    expect(settle({ market: '1st_half', selection: 'home', line: -1.5 }, final)).toBeNull();
  });
});
