import { describe, expect, it } from 'vitest';
import { CompactLines } from './compact-lines.js';
import type { StoreRow } from './store.js';
import { InsertBuffers } from './insert-buffers.js';

/** A batch's bytes as the store builds them, a row at a time. */
function compactLines(rows: readonly StoreRow[], columns: readonly string[]): Buffer {
  const lines = new CompactLines(columns, rows.length);
  for (const row of rows) lines.add(row);
  return lines.bytes();
}

/** What the store sent before: one string, a line per row. */
const asOneString = (rows: readonly StoreRow[], columns: readonly string[]): string =>
  rows.map((r) => `${JSON.stringify(columns.map((c) => r[c] ?? null))}\n`).join('');

describe('CompactLines (JSONCompactEachRow bytes for a chDB insert)', () => {
  it('writes a line per row, columns in the order given, missing and undefined values as null', () => {
    const rows: StoreRow[] = [
      { a: 1, b: 'x', c: null },
      { b: 'y', a: 2.5 },
      { a: -0.1, b: undefined, c: { pinnacle: 'p1' } },
    ];
    expect(compactLines(rows, ['a', 'b', 'c']).toString('utf8')).toBe('[1,"x",null]\n[2.5,"y",null]\n[-0.1,null,{"pinnacle":"p1"}]\n');
  });

  it('encodes text outside ASCII as UTF-8, byte for byte as the single string did', () => {
    const rows: StoreRow[] = [
      { team: 'Atlético', city: '北京' },
      { team: '🏀 "quoted" \\ back', city: 'tab\there' },
    ];
    const bytes = compactLines(rows, ['team', 'city']);
    expect(bytes.equals(Buffer.from(asOneString(rows, ['team', 'city']), 'utf8'))).toBe(true);
    expect(bytes.toString('utf8')).toBe('["Atlético","北京"]\n["🏀 \\"quoted\\" \\\\ back","tab\\there"]\n');
  });

  it('grows past its first guess of 256 bytes a row when lines are longer', () => {
    const long = 'é'.repeat(5000);
    const rows: StoreRow[] = Array.from({ length: 30 }, (_, i) => ({ i, text: i % 7 === 0 ? long : `row ${i}` }));
    const bytes = compactLines(rows, ['i', 'text']);
    expect(bytes.equals(Buffer.from(asOneString(rows, ['i', 'text']), 'utf8'))).toBe(true);
    // Five rows of 10,000 bytes of text each: far past 30 * 256.
    expect(bytes.length).toBeGreaterThan(50_000);
  });

  it('is empty for no rows', () => {
    expect(compactLines([], ['a']).length).toBe(0);
  });
});

describe('CompactLines on shared insert buffers', () => {
  it("writes a second batch into the first one's buffer, with none of the first batch's bytes left", () => {
    const buffers = new InsertBuffers();
    const first = new CompactLines(['s'], 1, buffers);
    first.add({ s: 'x'.repeat(1000) });
    const firstBuffer = first.bytes().buffer;
    first.release();
    expect(buffers.idleCount).toBe(1);
    const second = new CompactLines(['i'], 1, buffers);
    second.add({ i: 7 });
    expect(second.bytes().buffer).toBe(firstBuffer);
    expect(second.bytes().toString('utf8')).toBe('[7]\n');
  });

  it('gives its outgrown buffer back when it grows, and its last one on release (once)', () => {
    const buffers = new InsertBuffers();
    const lines = new CompactLines(['text'], 1, buffers);
    const rows: StoreRow[] = Array.from({ length: 20 }, (_, i) => ({ text: `${i} ${'z'.repeat(5000)}` }));
    for (const row of rows) lines.add(row);
    // Grown from 64 KB to past 20 rows x 15 KB of room: the 64 KB buffer is idle again.
    expect(buffers.idleCount).toBe(1);
    expect(lines.bytes().equals(Buffer.from(asOneString(rows, ['text']), 'utf8'))).toBe(true);
    lines.release();
    lines.release();
    expect(buffers.idleCount).toBe(2);
    expect(lines.bytes().length).toBe(0);
  });
});
