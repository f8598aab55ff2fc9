import { describe, expect, it } from 'vitest';
import type { CanonicalEvent, OddsTick, Opportunity } from '../../schemas/index.js';
import { OpportunityProcessor } from '../opportunities/index.js';
import { EVENT_ID, T0, event, ml } from '../opportunities/fixtures/builders.js';
import { SnapshotProcessor } from '../snapshot/index.js';
import { ClosingProcessor } from './processor.js';

const START = event().startTime;

/** Ticks through the real snapshot and opportunity processors; the +EV versions they produce, in order. */
function evVersions(ticks: { ticks: OddsTick[]; at: number }[]): Opportunity[] {
  const snapshot = new SnapshotProcessor();
  const opportunities = new OpportunityProcessor({ referenceBooks: ['pinnacle'], fallbackReferenceBooks: [] });
  const out: Opportunity[] = [...opportunities.handle({ type: 'event', event: event() }, T0).map((c) => c.opportunity)];
  for (const { ticks: list, at } of ticks)
    for (const t of list) {
      const change = snapshot.handle(t, at);
      if (change) out.push(...opportunities.handle({ type: 'odds', change }, at).map((c) => c.opportunity));
    }
  return out.filter((o) => o.kind === 'ev');
}

// DraftKings at +150 on the away side against Pinnacle's -150/+130: +EV, seen twice (it goes and comes back).
const versions = evVersions([
  { ticks: ml('pinnacle', -150, 130), at: T0 },
  { ticks: ml('draftkings', -190, 150), at: T0 + 1000 },
  { ticks: ml('draftkings', -190, 110), at: T0 + 2000 },
  { ticks: ml('draftkings', -190, 150), at: T0 + 3000 },
]);
const postponed: CanonicalEvent = event({ status: 'postponed', updatedAt: T0 + 4000 });

describe('the +EV sightings of an event that will not close', () => {
  it('are dropped when the event is postponed or cancelled before its start', () => {
    const closing = new ClosingProcessor({ referenceBooks: ['pinnacle'], fallbackReferenceBooks: [] });
    closing.handleBatch(
      [{ type: 'event', event: event() }, ...versions.map((opportunity) => ({ type: 'opportunity' as const, opportunity }))],
      T0 + 3000,
    );
    expect(closing.sightingCount).toBe(2);
    closing.handleBatch([{ type: 'event', event: postponed }], T0 + 4000);
    expect(closing.sightingCount).toBe(0);
    expect(closing.eventCount).toBe(1);
  });

  it('are not taken in after the postponement, as a restart replays the versions after the event', () => {
    const closing = new ClosingProcessor({ referenceBooks: ['pinnacle'], fallbackReferenceBooks: [] });
    const out = closing.handleBatch(
      [{ type: 'event', event: postponed }, ...versions.map((opportunity) => ({ type: 'opportunity' as const, opportunity }))],
      T0 + 5000,
    );
    expect(out.entries).toEqual([]);
    expect(closing.sightingCount).toBe(0);
  });

  it('of an event that starts are kept, graded at the start', () => {
    const closing = new ClosingProcessor({ referenceBooks: ['pinnacle'], fallbackReferenceBooks: [] });
    closing.handleBatch(
      [{ type: 'event', event: event() }, ...versions.map((opportunity) => ({ type: 'opportunity' as const, opportunity }))],
      T0 + 3000,
    );
    const out = closing.handleBatch([{ type: 'event', event: event({ status: 'live', isLive: true, updatedAt: START }) }], START);
    expect(closing.sightingCount).toBe(2);
    expect(out.grades.map((g) => [g.eventId, g.selection, g.priceAmerican, g.detectedAt])).toEqual([
      [EVENT_ID, 'away', 150, T0 + 1000],
      [EVENT_ID, 'away', 150, T0 + 3000],
    ]);
  });
});
