import { describe, expect, it } from 'vitest';
import { forEachInSlices } from './event-loop-slices.js';

function busyFor(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // an item as costly as a 3 KB opportunity row
  }
}

describe('forEachInSlices', () => {
  it('visits every item once, in order, with its index', async () => {
    const seen: string[] = [];
    await forEachInSlices(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'], (item, i) => seen.push(`${i}:${item}`), 0);
    expect(seen).toEqual(['0:a', '1:b', '2:c', '3:d', '4:e', '5:f', '6:g', '7:h', '8:i', '9:j']);
  });

  it('lets other work run between slices when the items are slow', async () => {
    const seen: string[] = [];
    // Queued before the loop starts: without a yield it would run only after the last item.
    setImmediate(() => seen.push('other work'));
    await forEachInSlices(
      Array.from({ length: 16 }, (_, i) => i),
      (i) => {
        busyFor(0.5);
        if (i === 7 || i === 15) seen.push(`item ${i}`);
      },
      2,
    );
    expect(seen).toEqual(['item 7', 'other work', 'item 15']);
  });

  it('holds the loop for the whole list when it takes less than a slice', async () => {
    const seen: string[] = [];
    setImmediate(() => seen.push('other work'));
    const done = forEachInSlices(
      Array.from({ length: 64 }, (_, i) => i),
      (i) => {
        if (i === 63) seen.push('last item');
      },
      60_000,
    );
    expect(seen).toEqual(['last item']);
    await done;
  });

  it('does nothing for no items', async () => {
    let visits = 0;
    await forEachInSlices([], () => visits++);
    expect(visits).toBe(0);
  });
});
