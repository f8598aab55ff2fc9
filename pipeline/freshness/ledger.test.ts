import { describe, expect, it } from 'vitest';
import type { OddsTick } from '../../schemas/index.js';
import { percentile } from './ledger.js';
import { POLICY, T0, ledgerOf, tick } from './fixtures/ticks.js';

describe('freshness ledger', () => {
  it('measures confirmation ages between sightings of a row, and feed lag on moved prices only', () => {
    const ledger = ledgerOf([
      tick({ ts: T0, observedAt: T0 + 2000 }),
      tick({ ts: T0 + 30_000, observedAt: T0 + 31_000 }),
      tick({ ts: T0 + 90_000, priceAmerican: -120, observedAt: T0 + 94_000 }),
    ]);
    const pre = ledger.report(T0 + 100_000).books[0]?.prematch;
    expect(pre?.confirmationAgeSeconds).toEqual({ count: 2, p50: 30, p95: 60, p99: 60 });
    expect(pre?.feedLagSeconds).toEqual({ count: 2, p50: 2, p95: 4, p99: 4 });
    expect(pre?.rows).toBe(1);
  });

  it('makes a quiet line the book keeps confirming fresh: the threshold follows the cadence, never below the floor', () => {
    const every = (seconds: number, book: string): OddsTick[] =>
      Array.from({ length: 12 }, (_, i) => tick({ book, ts: T0 + i * seconds * 1000 }));
    const ledger = ledgerOf([...every(120, 'slowbook'), ...every(5, 'fastbook')]);
    expect(ledger.staleAfterSeconds('slowbook', false)).toBe(240);
    expect(ledger.staleAfterSeconds('fastbook', false)).toBe(60);
    expect(ledger.staleAfterSeconds('unknown', true)).toBe(10);
  });

  it('holds the newest maxSamples confirmation ages and no more, however many it has seen, and reads its percentiles from them', () => {
    // 250 confirmations a second apart, then 100 five seconds apart: the newest 100 ages are all 5 s.
    const policy = { ...POLICY, maxSamples: 100 };
    const ticks = [
      ...Array.from({ length: 251 }, (_, i) => tick({ ts: T0 + i * 1000 })),
      ...Array.from({ length: 100 }, (_, i) => tick({ ts: T0 + 250_000 + (i + 1) * 5000 })),
    ];
    const ledger = ledgerOf(ticks, policy);
    // 100 confirmation ages, and the one feed lag of the first sighting.
    expect(ledger.samplesHeld).toBe(101);
    expect(ledger.report(T0 + 750_000).books[0]?.prematch.confirmationAgeSeconds).toEqual({ count: 100, p50: 5, p95: 5, p99: 5 });
  });

  it('holds the update counts of the window’s seconds only, however long it runs, and reads the rate from them', () => {
    // A confirmation every second for 40 minutes, with a 10-minute window. The counts were kept
    // in a map trimmed only when it held twice the window's seconds: 1,200 of them here, and
    // memory that kept growing for 20 minutes.
    const ticks = Array.from({ length: 2400 }, (_, i) => tick({ ts: T0 + i * 1000 }));
    const ledger = ledgerOf(ticks);
    expect(ledger.secondsHeld).toBe(601);
    const now = T0 + 2399 * 1000;
    expect(ledger.report(now).books[0]?.prematch.updatesPerMinute).toBe(60.1);
    expect(ledger.report(now + 500).books[0]?.prematch.updatesPerMinute).toBe(60);
  });

  it('keeps the floor until a book has enough confirmation ages', () => {
    const ledger = ledgerOf([tick({ ts: T0 }), tick({ ts: T0 + 600_000 })]);
    expect(ledger.staleAfterSeconds('pinnacle', false)).toBe(60);
  });

  it('counts suspended rows as a share of the book’s rows in the phase', () => {
    const ledger = ledgerOf([
      tick({ selection: 'home' }),
      tick({ selection: 'away' }),
      tick({ selection: 'home', status: 'suspended', ts: T0 + 1000 }),
    ]);
    expect(ledger.report(T0 + 1000).books[0]?.prematch).toMatchObject({ rows: 2, suspendedShare: 0.5 });
  });

  it('agrees with the figures recomputed straight from the ticks', () => {
    // A seeded walk of three books, two selections, live and pre-match, with repeats and moves.
    let seed = 7;
    const next = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const ticks: OddsTick[] = [];
    let t = T0;
    for (let i = 0; i < 600; i++) {
      t += Math.floor(next() * 4000);
      const book = ['a', 'b', 'c'][Math.floor(next() * 3)] ?? 'a';
      ticks.push(
        tick({
          book,
          selection: next() < 0.5 ? 'home' : 'away',
          isLive: next() < 0.3,
          priceAmerican: next() < 0.4 ? -110 : -115,
          ts: t,
          observedAt: t + Math.floor(next() * 3000),
        }),
      );
    }
    const ledger = ledgerOf(ticks, { ...POLICY, windowMs: 365 * 86_400_000 });
    const report = ledger.report(t);

    // Independently: per row, the step of ts between sightings; the lag of a price that moved.
    const last = new Map<string, { ts: number; price: number | null; live: boolean }>();
    const ages = new Map<string, number[]>();
    const lags = new Map<string, number[]>();
    const push = (m: Map<string, number[]>, k: string, v: number): void => void m.set(k, [...(m.get(k) ?? []), v]);
    for (const x of ticks) {
      const prev = last.get(`${x.book}|${x.selection}`);
      const phase = `${x.book}|${x.isLive ? 'live' : 'prematch'}`;
      if (prev !== undefined && x.ts <= prev.ts && prev.price === x.priceAmerican && prev.live === x.isLive) continue;
      if (prev !== undefined && x.ts > prev.ts) push(ages, phase, x.ts - prev.ts);
      if (prev === undefined || prev.price !== x.priceAmerican) push(lags, phase, (x.observedAt ?? x.ts) - x.ts);
      last.set(`${x.book}|${x.selection}`, { ts: x.ts, price: x.priceAmerican, live: x.isLive });
    }
    for (const b of report.books) {
      for (const phase of ['live', 'prematch'] as const) {
        const k = `${b.book}|${phase}`;
        const a = [...(ages.get(k) ?? [])].sort((x, y) => x - y);
        const l = [...(lags.get(k) ?? [])].sort((x, y) => x - y);
        expect(b[phase].confirmationAgeSeconds, k).toEqual({
          count: a.length,
          p50: (percentile(a, 0.5) ?? NaN) / 1000,
          p95: (percentile(a, 0.95) ?? NaN) / 1000,
          p99: (percentile(a, 0.99) ?? NaN) / 1000,
        });
        expect(b[phase].feedLagSeconds.count, k).toBe(l.length);
        expect(b[phase].feedLagSeconds.p95, k).toBe((percentile(l, 0.95) ?? NaN) / 1000);
      }
    }
  });
});
