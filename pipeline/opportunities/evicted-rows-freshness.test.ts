import { describe, expect, it } from 'vitest';
import type { OddsTick } from '../../schemas/index.js';
import { EVENT_ID, Harness, T0, event, tick } from './fixtures/builders.js';

// Issue 31: the opportunity processor dropped an event long past its start without telling the
// freshness ledger its rows were gone: they stayed counted as the book's rows, and those never
// confirmed stayed among the waits still running, which read as a book that takes the window's
// whole length to confirm (a threshold of twice the window's waits).

/** 40 player props of BetMGM for `eventId`, set or confirmed at `ts`. */
const props = (eventId: string, ts: number): OddsTick[] =>
  Array.from({ length: 40 }, (_, i) =>
    tick('betmgm', 'player_prop', 'over', 20.5, -110, { eventId, participant: `p${i}`, statCategory: 'points', ts }),
  );

describe('an evicted event’s rows leave the freshness ledger', () => {
  it('no longer counts the rows of an event dropped a day after its start, nor their waits', () => {
    const h = new Harness();
    // Its day after the start (retainAfterStartMs) ends 5 s after its props came: dropped at the next step.
    h.event(event({ startTime: T0 + 5_000 - 86_400_000 }));
    // The old event's props are never confirmed again; another event's are, every minute for 10 minutes.
    h.ticks([...props(EVENT_ID, T0), ...props('other-event', T0)]);
    for (let at = T0 + 60_000; at <= T0 + 600_000; at += 60_000) h.ticks(props('other-event', at), at);
    expect(h.processor.eventCount).toBe(1);
    const f = h.processor.freshnessOf('betmgm').prematch;
    // 2 × 60 s. The 40 waits of 10 minutes, beside 400 ages of a minute, read as 2 × 600 s.
    expect([f.rows, f.staleAfterSeconds]).toEqual([40, 120]);
  });
});
