/**
 * A suspended price now stays in the snapshot (locked, `isActive: false`) instead of leaving it.
 * Nobody can bet it, so whatever prices from the board must go on treating it as gone: the
 * opportunity engines expire what used it and find it again when the line reopens, and closing
 * lines drop a line still locked at the start (locked before it) as they drop a pulled one.
 */
import { describe, expect, it } from 'vitest';
import type { OddsTick } from '../../schemas/index.js';
import { ClosingProcessor } from '../closing/index.js';
import { EVENT_ID, Harness, T0, event, ml, spread, tick } from '../opportunities/fixtures/builders.js';
import { SnapshotProcessor } from './snapshot-processor.js';

const lock = (t: OddsTick, ts: number): OddsTick => ({ ...t, status: 'suspended', ts });

describe('a locked row downstream of the snapshot', () => {
  it('expires the +EV that used it (leg_removed), keeps it out while locked, and finds it again when the line reopens', () => {
    const h = new Harness();
    h.event(event());
    const edge = tick('draftkings', 'moneyline', 'away', null, 110);
    h.ticks([...ml('pinnacle', -110, -110), edge]);
    const ev = h.active('ev');
    expect(ev).toHaveLength(1);
    const out = h.ticks([lock(edge, T0 + 1000)], T0 + 1000);
    expect(out.filter((c) => c.opportunity.kind === 'ev').map((c) => [c.type, c.opportunity.expireReason])).toEqual([
      ['expire', 'leg_removed'],
    ]);
    expect(h.snapshot.size).toBe(3);
    // Other prices move while it is locked: nothing is built on the locked row.
    h.ticks([tick('pinnacle', 'moneyline', 'home', null, -108, { ts: T0 + 2000 })], T0 + 2000);
    expect(h.active('ev')).toEqual([]);
    const back = h.ticks([{ ...edge, ts: T0 + 3000 }], T0 + 3000);
    expect(back.filter((c) => c.opportunity.kind === 'ev').map((c) => c.type)).toEqual(['create']);
  });

  it('closes a line locked before the start like one pulled before it, and one locked at kickoff like one pulled then', () => {
    const snapshot = new SnapshotProcessor();
    const closing = new ClosingProcessor({ referenceBooks: ['pinnacle'], fallbackReferenceBooks: [] });
    const start = event().startTime;
    const feed = (ticks: OddsTick[], now: number): void => {
      for (const t of ticks) {
        const change = snapshot.handle(t, now);
        if (change) closing.handleBatch([{ type: 'odds', change }], now);
      }
    };
    closing.handleBatch([{ type: 'event', event: event() }], T0);
    feed([...spread('pinnacle', -3.5, -110, -110), ...spread('draftkings', -3.5, -105, -115), ...spread('fanduel', -3.5, -108, -112)], T0);
    feed(
      spread('draftkings', -3.5, -105, -115).map((t) => lock(t, T0 + 60_000)),
      T0 + 60_000,
    ); // locked an hour before, never reopened
    feed(spread('draftkings', -3.5, null, null, { ts: start }), start); // then pulled at kickoff: still not a close
    feed(
      spread('fanduel', -3.5, -108, -112).map((t) => lock(t, start)),
      start,
    ); // locked at kickoff
    closing.handleBatch([{ type: 'event', event: event({ status: 'live', isLive: true, updatedAt: start }) }], start);
    const lines = closing
      .closingOf(EVENT_ID)
      .map((c) => `${c.book}|${c.selection}|${c.priceAmerican}`)
      .sort();
    expect(lines).toEqual(['fanduel|away|-112', 'fanduel|home|-108', 'pinnacle|away|-110', 'pinnacle|home|-110']);
  });
});
