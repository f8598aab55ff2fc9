/**
 * The free tier's delayed board: what the live board applied, a minute later, exactly. Its line
 * keeps odds changes as text (`PackedChange`); these pin down that nothing is lost in the
 * packing and that the line no longer keeps superseded rows alive.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../pipeline/clock.js';
import type { CanonicalEvent, OddsRow } from '../../schemas/index.js';
import { LiveBoard } from './board.js';
import { DelayedBoard } from './delayed-board.js';
import { packChange, unpackChange } from './packed-change.js';
import { gc } from '../../test/support/gc.js';

const T0 = Date.UTC(2026, 10, 23, 18);
const DELAY = 60_000;

const event: CanonicalEvent = {
  id: 'nba-1',
  sport: 'basketball',
  league: 'nba',
  homeTeamId: 'nba-lal',
  awayTeamId: 'nba-bos',
  startTime: T0 + 3_600_000,
  status: 'upcoming',
  isLive: false,
  externalIds: {},
  updatedAt: T0,
};

function row(over: Partial<OddsRow> = {}): OddsRow {
  return {
    id: '3f1c2a9b8e7d6c5b',
    eventId: 'nba-1',
    book: 'pinnacle',
    market: 'point_spread',
    selection: 'home',
    line: -3.5,
    participant: null,
    statCategory: null,
    priceAmerican: -110,
    priceDecimal: 1.9091,
    probability: 0.52381,
    ts: T0 + 0.5,
    oddsChangedAt: T0 + 0.5,
    observedAt: T0 + 0.5,
    isLive: false,
    bookEventId: 'pin-1641-é"\\',
    selectionId: null,
    isActive: true,
    suspendedSince: null,
    ...over,
  };
}

const KEY = 'nba-1|point_spread||-3.5|home|pinnacle';

function setup(log?: { maxChanges: number; maxAgeMs: number }): { clock: ManualClock; live: LiveBoard; delayed: DelayedBoard } {
  const clock = new ManualClock(T0);
  const live = new LiveBoard({ now: () => clock.now(), ...(log ? { log } : {}) });
  const delayed = new DelayedBoard(DELAY, clock, {});
  delayed.follow(live);
  return { clock, live, delayed };
}

describe('packed odds changes', () => {
  it('read back field for field: awkward doubles, nulls, a locked row, an exchange row and a removal', () => {
    const locked = row({
      line: null,
      participant: 'LeBron James',
      statCategory: 'points',
      priceAmerican: 137,
      priceDecimal: 2.37,
      probability: 0.421941,
      ts: 1795460105854.25,
      oddsChangedAt: 1795460099000.5,
      observedAt: 1795460105901,
      isLive: true,
      selectionId: 'sel-9',
      isActive: false,
      suspendedSince: 1795460106000,
    });
    const exchange = row({ exchange: { back: 2.5, backSize: 12.34, lay: null, laySize: null, volume: 0.1 + 0.2, commission: 5 } });
    for (const change of [
      { key: KEY, eventId: 'nba-1', row: row(), changedAt: T0 + 1 },
      { key: KEY, eventId: 'nba-1', row: locked, changedAt: 0.1 + 0.2 },
      { key: KEY, eventId: 'nba-1', row: exchange, changedAt: T0 + 3 },
      { key: KEY, eventId: 'nba-1', row: null, changedAt: T0 + 2 },
    ]) {
      expect(unpackChange(packChange(change))).toStrictEqual(change);
    }
  });

  it('hand back the current row itself when it is the one packed, and a copy when it is not', () => {
    const current = row();
    const packed = packChange({ key: KEY, eventId: 'nba-1', row: row(), changedAt: T0 });
    expect(unpackChange(packed, () => current).row).toBe(current);
    const moved = row({ priceAmerican: -105, priceDecimal: 1.9524, probability: 0.512195 });
    const back = unpackChange(packed, () => moved).row;
    expect(back).not.toBe(moved);
    expect(back).toStrictEqual(row());
  });
});

describe('a delayed board', () => {
  it('applies each change a delay later, in the order the live board applied them', () => {
    const { clock, live, delayed } = setup();
    live.applyEvent(event);
    live.applyChange({ key: KEY, eventId: 'nba-1', row: row(), changedAt: T0 });
    clock.advance(10_000);
    const second = row({ priceAmerican: -120, priceDecimal: 1.8333, probability: 0.545455, ts: T0 + 10_000 });
    live.applyChange({ key: KEY, eventId: 'nba-1', row: second, changedAt: T0 + 10_000 });
    clock.advance(5_000);
    live.applyChange({ key: KEY, eventId: 'nba-1', row: null, changedAt: T0 + 15_000 });

    clock.set(T0 + DELAY - 1);
    expect(delayed.sync().event('nba-1')).toBeUndefined();
    expect(delayed.pending).toBe(4);

    clock.set(T0 + DELAY);
    expect(delayed.sync().event('nba-1')).toStrictEqual(event);
    expect(delayed.board.row('nba-1', KEY)).toStrictEqual(row());

    clock.set(T0 + DELAY + 10_000);
    expect(delayed.sync().row('nba-1', KEY)).toStrictEqual(second);

    clock.set(T0 + DELAY + 15_000);
    expect(delayed.sync().row('nba-1', KEY)).toBeUndefined();
    expect(delayed.pending).toBe(0);
  });

  it('shares the live row when it has not changed since, instead of holding a copy', () => {
    const { clock, live, delayed } = setup();
    live.applyEvent(event);
    const held = row();
    live.applyChange({ key: KEY, eventId: 'nba-1', row: held, changedAt: T0 });
    clock.advance(DELAY);
    expect(delayed.sync().row('nba-1', KEY)).toBe(held);
  });

  it('starts from what the live board already holds, a delay after it starts following', () => {
    const clock = new ManualClock(T0);
    const live = new LiveBoard({ now: () => clock.now() });
    live.applyEvent(event);
    const held = row();
    live.applyChange({ key: KEY, eventId: 'nba-1', row: held, changedAt: T0 });
    const delayed = new DelayedBoard(DELAY, clock, {});
    clock.advance(1_000);
    delayed.follow(live);
    clock.advance(DELAY - 1);
    expect(delayed.sync().rowCount).toBe(0);
    clock.advance(1);
    expect(delayed.sync().row('nba-1', KEY)).toBe(held);
  });

  it('does not keep a superseded row alive while its change waits in the line', async () => {
    // The live board's change log keeps one entry here, so that only the line could hold the
    // first row.
    const { clock, live, delayed } = setup({ maxChanges: 1, maxAgeMs: DELAY });
    live.applyEvent(event);
    let first: OddsRow | null = row();
    const ref = new WeakRef(first);
    live.applyChange({ key: KEY, eventId: 'nba-1', row: first, changedAt: T0 });
    first = null;
    clock.advance(1_000);
    live.applyChange({
      key: KEY,
      eventId: 'nba-1',
      row: row({ priceAmerican: -120, priceDecimal: 1.8333, probability: 0.545455, ts: T0 + 1_000 }),
      changedAt: T0 + 1_000,
    });
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    expect(ref.deref()).toBeUndefined();
    expect(delayed.pending).toBe(3);
  });
});
