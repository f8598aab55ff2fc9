import { describe, expect, it } from 'vitest';
import { comparableRow } from '../test/support/comparable-row.js';
import { OddsMirror } from './soak-mirror.js';

const row = (id: string, price: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  id,
  odds_american: price,
  odds_age_seconds: 3,
  ...extra,
});
const truth = (...rows: Record<string, unknown>[]): Map<string, string> => new Map(rows.map((r) => [r['id'] as string, comparableRow(r)]));
const clean = { differing: [], extra: [], differingCount: 0, extraCount: 0 };

describe('a soak subscriber mirror', () => {
  it('compares rows by content with keys in any order and clock fields left out', () => {
    expect(comparableRow({ b: 1, a: { d: 2, c: 3 }, odds_age_seconds: 9 })).toBe('{"a":{"c":3,"d":2},"b":1}');
  });

  it('applies SSE frames: a first snapshot chunk replaces everything, updates upsert, removals delete', () => {
    const m = new OddsMirror();
    m.applySse('snapshot', { odds: [row('a', 100), row('b', 110)], offset: 0 });
    m.applySse('snapshot', { odds: [row('c', 120)], offset: 2 });
    m.applySse('odds:update', { odds: [row('a', 105, { odds_age_seconds: 0 })] });
    m.applySse('odds:removed', { ids: ['b'] });
    expect(m.diff(truth(row('a', 105), row('c', 120)))).toEqual(clean);
    // A resync's snapshot starts again from nothing.
    m.applySse('snapshot', { odds: [row('d', 130)], offset: 0 });
    expect(m.diff(truth(row('d', 130)))).toEqual(clean);
  });

  it('names rows that differ from /odds and rows /odds no longer has', () => {
    const m = new OddsMirror();
    m.applySse('snapshot', { odds: [row('a', 100), row('b', 110)], offset: 0 });
    expect(m.diff(truth(row('a', 101)))).toEqual({ differing: ['a'], extra: ['b'], differingCount: 1, extraCount: 1 });
  });

  it('keeps what it holds across a resumed WebSocket connection and replaces it on a resync', () => {
    const m = new OddsMirror();
    m.applyWs({ type: 'subscribed' });
    m.applyWs({ type: 'initial', data: [row('a', 100), row('b', 110)] });
    m.applyWs({ type: 'snapshot:complete', resumed: false });
    // Resumed: the replayed messages apply on top.
    m.applyWs({ type: 'subscribed' });
    m.applyWs({ type: 'odds:update', data: [row('a', 99)], replay: true });
    m.applyWs({ type: 'snapshot:complete', resumed: true });
    expect(m.diff(truth(row('a', 99), row('b', 110)))).toEqual(clean);
    // Resync with an empty filter: no initial message, yet nothing held survives.
    m.applyWs({ type: 'subscribed' });
    m.applyWs({ type: 'snapshot:complete', resumed: false, resync: true });
    expect(m.size).toBe(0);
  });
});
