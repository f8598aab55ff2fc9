import { describe, expect, it } from 'vitest';
import type { OddsRow } from '../../schemas/index.js';
import { ChangeLog } from './change-log.js';
import type { EffectiveChange } from './change-log.js';
import { compareLogTime, formatLogTime, parseLogTime } from './log-time.js';
import type { LogTime } from './log-time.js';
import { gc } from '../../test/support/gc.js';

function row(id: string, price = -110): OddsRow {
  return {
    id,
    eventId: 'e1',
    book: 'pinnacle',
    market: 'moneyline',
    selection: 'home',
    line: null,
    participant: null,
    statCategory: null,
    priceAmerican: price,
    priceDecimal: 1.9,
    probability: 0.52,
    ts: 0,
    oddsChangedAt: 0,
    observedAt: 0,
    isLive: false,
    bookEventId: 'b1',
    selectionId: null,
    isActive: true,
    suspendedSince: null,
  };
}

function collect(log: ChangeLog, since: LogTime): EffectiveChange[] {
  const out: EffectiveChange[] = [];
  log.scan(since, (c) => {
    out.push(c);
    return true;
  });
  return out;
}

describe('log time', () => {
  it('writes nine fractional digits and reads them back exactly', () => {
    const t = { ms: Date.UTC(2026, 4, 1, 18, 30, 0, 123), sub: 42 };
    expect(formatLogTime(t)).toBe('2026-05-01T18:30:00.123000042Z');
    expect(parseLogTime(formatLogTime(t))).toEqual(t);
  });

  it('reads client-written times: no fraction, offsets, lowercase, short offsets', () => {
    expect(parseLogTime('2026-05-01T18:30:00Z')).toEqual({ ms: Date.UTC(2026, 4, 1, 18, 30), sub: 0 });
    expect(parseLogTime('2026-05-01T20:30:00+02:00')).toEqual({ ms: Date.UTC(2026, 4, 1, 18, 30), sub: 0 });
    expect(parseLogTime('2026-05-01t13:30:00.5-0500')).toEqual({ ms: Date.UTC(2026, 4, 1, 18, 30, 0, 500), sub: 0 });
    expect(parseLogTime('2026-05-01T18:30:00.1234567891z')).toEqual({ ms: Date.UTC(2026, 4, 1, 18, 30, 0, 123), sub: 456789 });
    expect(parseLogTime('0001-01-01T00:00:00Z')?.ms).toBe(new Date('0001-01-01T00:00:00Z').getTime());
  });

  it('rejects what is not an instant', () => {
    for (const bad of [
      '',
      'yesterday',
      '2026-05-01',
      '2026-02-30T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-05-01T24:00:00Z',
      '2026-05-01T18:30:00',
      '2026-05-01T18:30:00+25:00',
    ]) {
      expect([bad, parseLogTime(bad)]).toEqual([bad, null]);
    }
  });
});

describe('change log', () => {
  it('stamps strictly increasing times, several per millisecond', () => {
    let now = 1000;
    const log = new ChangeLog(() => now);
    const a = log.append('k1', row('a'), null);
    const b = log.append('k2', row('b'), null);
    now = 1005;
    const c = log.append('k3', row('c'), null);
    expect([a, b, c]).toEqual([
      { ms: 1000, sub: 1 },
      { ms: 1000, sub: 2 },
      { ms: 1005, sub: 1 },
    ]);
  });

  it('never runs back when the clock does', () => {
    let now = 1000;
    const log = new ChangeLog(() => now);
    log.append('k1', row('a'), null);
    now = 900;
    expect(compareLogTime(log.append('k2', row('b'), null), { ms: 1000, sub: 1 })).toBeGreaterThan(0);
  });

  it('hands out a head that every later change is after', () => {
    let now = 1000;
    const log = new ChangeLog(() => now);
    log.append('k1', row('a'), null);
    const head = log.head();
    expect(head).toEqual({ ms: 1000, sub: 1 });
    const later = log.append('k2', row('b'), null);
    expect(compareLogTime(later, head)).toBeGreaterThan(0);
    now = 2000;
    const quiet = log.head();
    expect(quiet).toEqual({ ms: 2000, sub: 0 });
    expect(compareLogTime(log.append('k3', row('c'), null), quiet)).toBeGreaterThan(0);
  });

  it('keeps only the latest change of a row, at the place of that change', () => {
    const now = 1000;
    const log = new ChangeLog(() => now);
    const start = log.head();
    log.append('k1', row('a', 100), null);
    log.append('k2', row('b'), null);
    log.append('k1', row('a', 120), null);
    log.append('k2', null, row('b'));
    const changes = collect(log, start);
    expect(changes.map((c) => [c.key, c.row?.priceAmerican ?? null, c.removed?.id ?? null])).toEqual([
      ['k1', 120, null],
      ['k2', null, 'b'],
    ]);
  });

  it('answers exactly from a time inside a millisecond', () => {
    const log = new ChangeLog(() => 1000);
    log.append('k1', row('a'), null);
    const mid = log.append('k2', row('b'), null);
    log.append('k3', row('c'), null);
    expect(collect(log, mid).map((c) => c.key)).toEqual(['k3']);
    expect(collect(log, { ms: 1000, sub: 0 }).map((c) => c.key)).toEqual(['k1', 'k2', 'k3']);
  });

  it('drops the oldest changes beyond its size and then refuses older times', () => {
    const log = new ChangeLog(() => 1000, { maxChanges: 1000, maxAgeMs: 60_000 });
    const start = log.head();
    for (let i = 0; i < 2500; i++) log.append(`k${i}`, row(`r${i}`), null);
    expect(log.length).toBe(1000);
    expect(log.covers(start)).toBe(false);
    expect(log.covers(log.floor)).toBe(true);
    expect(collect(log, log.floor).length).toBe(1000);
  });

  it('drops changes older than its age', () => {
    let now = 0;
    const log = new ChangeLog(() => now, { maxChanges: 100_000, maxAgeMs: 1000 });
    log.append('old', row('a'), null);
    now = 5000;
    log.append('new', row('b'), null);
    expect(log.length).toBe(1);
    expect(log.covers({ ms: 0, sub: 0 })).toBe(false);
    expect(log.covers({ ms: 0, sub: 1 })).toBe(true);
  });

  it('walks only what it must: a stopped scan walks the entries up to the stop', () => {
    const log = new ChangeLog(() => 1000);
    const start = log.head();
    for (let i = 0; i < 10_000; i++) log.append(`k${i}`, row(`r${i}`), null);
    let seen = 0;
    const walked = log.scan(start, () => ++seen < 10);
    expect(walked).toBe(10);
    expect(log.countAfter(start)).toBe(10_000);
  });
});

describe('change log compaction', () => {
  it('walks each row once however often it changed, with the same answer and floor', () => {
    let now = 1000;
    const log = new ChangeLog(() => now, { maxChanges: 100_000, maxAgeMs: 3_600_000 });
    const start = log.head();
    const floor = log.floor;
    for (let round = 0; round < 50; round++) {
      now++;
      for (let k = 0; k < 100; k++) log.append(`k${k}`, row(`r${k}`, -100 - round), null);
    }
    log.append('k7', null, row('r7'));
    const mid = { ms: 1040, sub: 0 };
    expect(log.length).toBeLessThanOrEqual(2 * 1024 + 100);
    const changes = collect(log, start);
    expect(changes.map((c) => c.key)).toEqual([...Array.from({ length: 100 }, (_, k) => `k${k}`).filter((k) => k !== 'k7'), 'k7']);
    expect(changes.every((c) => (c.key === 'k7' ? c.row === null : c.row?.priceAmerican === -149))).toBe(true);
    expect(collect(log, mid).length).toBe(100);
    expect(log.scan(start, () => true)).toBeLessThanOrEqual(log.length);
    expect(log.floor).toEqual(floor);
    expect(log.covers(start)).toBe(true);
  });

  it('lets go of a superseded row at once, not at the next compaction', async () => {
    const log = new ChangeLog(() => 1000, { maxChanges: 100_000, maxAgeMs: 3_600_000 });
    const start = log.head();
    let first: OddsRow | null = row('a', 100);
    const ref = new WeakRef(first);
    log.append('k1', first, null);
    first = null;
    log.append('k2', row('b'), null);
    log.append('k1', row('a', 120), null);
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    expect(ref.deref()).toBeUndefined();
    expect(collect(log, start).map((c) => [c.key, c.row?.priceAmerican])).toEqual([
      ['k2', -110],
      ['k1', 120],
    ]);
    expect(log.length).toBe(3);
  });
});
