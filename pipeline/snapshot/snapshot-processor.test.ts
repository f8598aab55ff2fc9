import { describe, expect, it } from 'vitest';
import type { OddsTick } from '../../schemas/index.js';
import { SnapshotProcessor } from './snapshot-processor.js';

function tick(over: Partial<OddsTick>): OddsTick {
  return {
    eventId: 'e1', book: 'draftkings', market: 'point_spread', selection: 'home', line: -3.5, participant: null,
    statCategory: null, priceAmerican: -110, status: 'open', ts: 1000, isLive: false, bookEventId: 'dk1', selectionId: null,
    ...over,
  };
}

describe('SnapshotProcessor', () => {
  it('creates a row on the first price with exact decimal and implied probability', () => {
    const s = new SnapshotProcessor();
    const change = s.handle(tick({}), 5000);
    expect(change?.row).toMatchObject({ priceAmerican: -110, priceDecimal: 1.9091, probability: 0.52381, ts: 1000 });
    expect(change?.changedAt).toBe(5000);
    expect(change?.row?.id).toMatch(/^[0-9a-f]{16}$/);
  });

  it('ignores a repeat of the same price and time, but records a confirmation with a newer time', () => {
    const s = new SnapshotProcessor();
    s.handle(tick({}), 1);
    expect(s.handle(tick({}), 2)).toBeNull();
    expect(s.handle(tick({ ts: 2000 }), 3)?.row?.ts).toBe(2000);
  });

  it('keeps the row id across price changes', () => {
    const s = new SnapshotProcessor();
    const a = s.handle(tick({}), 1);
    const b = s.handle(tick({ priceAmerican: -115, ts: 2000 }), 2);
    expect(b?.row?.id).toBe(a?.row?.id);
    expect(b?.row?.priceAmerican).toBe(-115);
  });

  it('moves a line: the old line is removed with a tombstone and the new line appears', () => {
    const s = new SnapshotProcessor();
    s.handle(tick({}), 1);
    const removed = s.handle(tick({ status: 'suspended', priceAmerican: null, ts: 2000 }), 2);
    const added = s.handle(tick({ line: -4, priceAmerican: -105, ts: 2000 }), 2);
    expect(removed).toMatchObject({ row: null, eventId: 'e1' });
    expect(added?.row?.line).toBe(-4);
    expect(s.size).toBe(1);
  });

  it('ignores the suspension of a row it never had', () => {
    expect(new SnapshotProcessor().handle(tick({ status: 'suspended', priceAmerican: null }), 1)).toBeNull();
  });

  it('never lets an out-of-order older price overwrite a newer one', () => {
    const s = new SnapshotProcessor();
    s.handle(tick({ ts: 2000, priceAmerican: -120 }), 1);
    expect(s.handle(tick({ ts: 1500, priceAmerican: -105 }), 2)).toBeNull();
  });

  it('keeps player props of different players and stats apart', () => {
    const s = new SnapshotProcessor();
    s.handle(tick({ market: 'player_prop', selection: 'over', line: 27.5, participant: 'A. Player', statCategory: 'points' }), 1);
    s.handle(tick({ market: 'player_prop', selection: 'over', line: 27.5, participant: 'A. Player', statCategory: 'rebounds' }), 1);
    s.handle(tick({ market: 'player_prop', selection: 'over', line: 27.5, participant: 'B. Player', statCategory: 'points' }), 1);
    expect(s.size).toBe(3);
  });
});
