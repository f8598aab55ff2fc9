import { describe, expect, it } from 'vitest';
import { heapDiffArgs } from './heap-profile-args.js';

describe('heap-profile-diff command line', () => {
  it('keeps every profile when --rows is not given (the first was dropped, so two profiles printed the usage)', () => {
    expect(heapDiffArgs(['a.json', 'b.json'])).toEqual({ files: ['a.json', 'b.json'], rows: 25 });
    expect(heapDiffArgs(['a.json', 'b.json', 'c.json', 'd.json'])).toEqual({ files: ['a.json', 'b.json', 'c.json', 'd.json'], rows: 25 });
  });

  it('takes --rows and its value out wherever they stand', () => {
    expect(heapDiffArgs(['--rows', '40', 'a.json', 'b.json'])).toEqual({ files: ['a.json', 'b.json'], rows: 40 });
    expect(heapDiffArgs(['a.json', '--rows', '5', 'b.json', 'c.json'])).toEqual({ files: ['a.json', 'b.json', 'c.json'], rows: 5 });
  });

  it('refuses one profile or a row count that is not a positive integer', () => {
    expect(heapDiffArgs(['a.json'])).toBeNull();
    expect(heapDiffArgs(['a.json', 'b.json', '--rows', '0'])).toBeNull();
    expect(heapDiffArgs(['a.json', 'b.json', '--rows', 'x'])).toBeNull();
  });
});
