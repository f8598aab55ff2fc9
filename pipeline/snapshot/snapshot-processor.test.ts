import { describe, expect, it } from 'vitest';
import type { OddsChange, OddsRow, OddsTick } from '../../schemas/index.js';
import { SnapshotProcessor } from './snapshot-processor.js';

function tick(over: Partial<OddsTick>): OddsTick {
  return {
    eventId: 'e1',
    book: 'draftkings',
    market: 'point_spread',
    selection: 'home',
    line: -3.5,
    participant: null,
    statCategory: null,
    priceAmerican: -110,
    status: 'open',
    ts: 1000,
    isLive: false,
    bookEventId: 'dk1',
    selectionId: null,
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

  it('carries an exchange quote on the row, and a change of size alone at the same price and time is a change', () => {
    const s = new SnapshotProcessor();
    const quote = { back: 2.5, backSize: 3, lay: 2.56, laySize: 4, volume: 150, commission: 5 };
    const ex = (backSize: number): OddsTick => tick({ book: 'betfair_ex_eu', priceAmerican: 143, exchange: { ...quote, backSize } });
    expect(s.handle(ex(3), 1)?.row?.exchange).toEqual(quote);
    expect(s.handle(ex(3), 2)).toBeNull();
    expect(s.handle(ex(40), 3)?.row?.exchange?.backSize).toBe(40);
    expect(s.handle(tick({}), 4)?.row).not.toHaveProperty('exchange');
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
    expect(new SnapshotProcessor().handle(tick({ status: 'suspended', priceAmerican: -110 }), 1)).toBeNull();
  });

  it('locks a suspended price: the row stays with its last price frozen, inactive since the suspension', () => {
    const s = new SnapshotProcessor();
    const open = s.handle(tick({ priceAmerican: -110, ts: 1000 }), 1)?.row;
    // The book's frozen price may differ from what we last saw: the board keeps its own last price.
    const locked = s.handle(tick({ status: 'suspended', priceAmerican: -125, ts: 2000 }), 2);
    expect(locked).toEqual({
      key: expect.any(String),
      eventId: 'e1',
      changedAt: 2,
      row: { ...open, isActive: false, suspendedSince: 2000 },
    });
    expect(s.size).toBe(1);
    // A repeated suspension changes nothing (no changelog record).
    expect(s.handle(tick({ status: 'suspended', priceAmerican: -110, ts: 3000 }), 3)).toBeNull();
  });

  it('keeps the time the price last moved through confirmations, when the feed does not say', () => {
    const s = new SnapshotProcessor();
    s.handle(tick({ priceAmerican: -110, ts: 1000 }), 1);
    expect(s.handle(tick({ priceAmerican: -110, ts: 2000 }), 2)?.row).toMatchObject({ ts: 2000, oddsChangedAt: 1000, observedAt: 2000 });
    expect(s.handle(tick({ priceAmerican: -115, ts: 3000, observedAt: 3400 }), 3)?.row).toMatchObject({
      ts: 3000,
      oddsChangedAt: 3000,
      observedAt: 3400,
    });
    expect(s.handle(tick({ priceAmerican: -115, ts: 4000, oddsChangedAt: 2500 }), 4)?.row).toMatchObject({ oddsChangedAt: 2500 });
  });

  it('reopens a locked row on a fresh price, under the same id, even at the price it froze', () => {
    const s = new SnapshotProcessor();
    const open = s.handle(tick({ ts: 1000 }), 1)?.row;
    s.handle(tick({ status: 'suspended', priceAmerican: -110, ts: 2000 }), 2);
    const reopened = s.handle(tick({ priceAmerican: -110, ts: 3000 }), 3)?.row;
    expect(reopened).toEqual({ ...open, ts: 3000, observedAt: 3000, isActive: true, suspendedSince: null });
  });

  it('keeps a row locked against a price older than the suspension, and open against an older suspension', () => {
    const s = new SnapshotProcessor();
    s.handle(tick({ ts: 1000 }), 1);
    expect(s.handle(tick({ status: 'suspended', priceAmerican: -110, ts: 500 }), 2)).toBeNull();
    s.handle(tick({ status: 'suspended', priceAmerican: -110, ts: 2000 }), 3);
    expect(s.handle(tick({ priceAmerican: -105, ts: 1500 }), 4)).toBeNull();
    expect(s.handle(tick({ priceAmerican: -105, ts: 2000 }), 5)?.row).toMatchObject({ priceAmerican: -105, isActive: true });
  });

  it('removes a locked row when the book pulls the line, and every row, locked ones too, when its event closes', () => {
    const s = new SnapshotProcessor();
    s.handle(tick({}), 1);
    s.handle(tick({ status: 'suspended', ts: 2000 }), 2);
    expect(s.handle(tick({ status: 'suspended', priceAmerican: null, ts: 2500 }), 3)).toMatchObject({ row: null, eventId: 'e1' });
    expect(s.size).toBe(0);
    s.handle(tick({}), 4);
    s.handle(tick({ book: 'fanduel' }), 4);
    s.handle(tick({ book: 'fanduel', status: 'suspended', ts: 2000 }), 5);
    expect(s.closeEvent('e1', 6).map((c) => c.row)).toEqual([null, null]);
    expect(s.size).toBe(0);
  });

  it('restores locked rows, and reads changelog records written before rows had the flags as active', () => {
    const s = new SnapshotProcessor();
    const first = s.handle(tick({}), 1) as OddsChange;
    const locked = s.handle(tick({ status: 'suspended', ts: 2000 }), 2) as OddsChange;
    const restored = new SnapshotProcessor();
    restored.restore(first);
    restored.restore(locked);
    // Still locked: a second suspension is nothing new; a fresh price reopens it.
    expect(restored.handle(tick({ status: 'suspended', ts: 2500 }), 3)).toBeNull();
    expect(restored.handle(tick({ ts: 3000 }), 4)?.row?.isActive).toBe(true);

    const { isActive: _a, suspendedSince: _s, ...oldRow } = first.row as OddsRow;
    const old = new SnapshotProcessor();
    old.restore({ ...first, row: oldRow } as unknown as OddsChange);
    expect(old.handle(tick({ status: 'suspended', ts: 2000 }), 5)?.row).toMatchObject({
      isActive: false,
      suspendedSince: 2000,
      priceAmerican: -110,
    });
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
