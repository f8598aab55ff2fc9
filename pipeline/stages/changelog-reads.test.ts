import { describe, expect, it } from 'vitest';
import { inWriteOrder } from './changelog-reads.js';

const at = (name: string, timestamp: number): { name: string; timestamp: number } => ({ name, timestamp });
const names = (records: readonly { name: string }[]): string[] => records.map((r) => r.name);

describe('two changelogs in the order they were written', () => {
  it('interleaves the records by timestamp, the first log’s record first at equal timestamps', () => {
    const events = [at('e1', 100), at('e2', 250), at('e3', 400)];
    const odds = [at('o1', 100), at('o2', 200), at('o3', 250), at('o4', 300), at('o5', 500)];
    expect(names(inWriteOrder(events, odds))).toEqual(['e1', 'o1', 'o2', 'e2', 'o3', 'o4', 'e3', 'o5']);
  });

  it('keeps each log in its own order where its timestamps step back', () => {
    // A producer's clock stepping back (another process after a restart) moves no record past another of its log.
    const events = [at('e1', 300), at('e2', 100)];
    const odds = [at('o1', 200), at('o2', 150)];
    expect(names(inWriteOrder(events, odds))).toEqual(['o1', 'o2', 'e1', 'e2']);
  });

  it('gives either log whole when the other is empty', () => {
    expect(names(inWriteOrder([at('e1', 5), at('e2', 1)], []))).toEqual(['e1', 'e2']);
    expect(names(inWriteOrder([], [at('o1', 5), at('o2', 1)]))).toEqual(['o1', 'o2']);
  });
});
