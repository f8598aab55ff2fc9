import { describe, expect, it } from 'vitest';
import type { OddsChange, OddsTick } from '../../schemas/index.js';
import { EVENT_ID, T0, event, ml, tick } from '../opportunities/fixtures/builders.js';
import { SnapshotProcessor } from '../snapshot/index.js';
import { ClosingProcessor } from './processor.js';

const START = event().startTime;

/**
 * A line pulled before the capture waits there until the event goes live, to learn whether it was
 * pulled before the start (it did not close) or at kickoff (it did). The closing stage kept the
 * whole row for it all that time: its id, links and quote, when a close needs nine of its fields.
 * On the soak's simulator (lines re-keyed as they move) these rows grew by about 90 a minute, the
 * largest share of the pipeline's heap growth (docs/soak.md, round nine).
 */
describe('a line pulled before the capture', () => {
  const snapshot = new SnapshotProcessor();
  const changes = (ticks: OddsTick[], at: number): OddsChange[] =>
    ticks.flatMap((t) => {
      const c = snapshot.handle({ ...t, ts: at }, at);
      return c === null ? [] : [c];
    });
  const closing = new ClosingProcessor({ referenceBooks: ['pinnacle'], fallbackReferenceBooks: [] });
  const feed = (list: OddsChange[], at: number): void => {
    closing.handleBatch(
      list.map((change) => ({ type: 'odds' as const, change })),
      at,
    );
  };
  closing.handleBatch([{ type: 'event', event: event() }], T0);
  const opening = changes([...ml('pinnacle', -150, 130), ...ml('draftkings', -160, 140)], T0);
  feed(opening, T0);
  const draftkingsHome = opening.find((c) => c.row?.book === 'draftkings' && c.row.selection === 'home');
  if (!draftkingsHome?.row) throw new Error('the fixture opens DraftKings home');
  // Pulled at kickoff (after the start time, before any live price captures the close).
  feed(changes([tick('draftkings', 'moneyline', 'home', null, null)], START + 60_000), START + 60_000);

  it('keeps the nine fields a close reads, not the row', () => {
    const held = closing.preMatchOf(EVENT_ID).get(draftkingsHome.key);
    expect(held).not.toBe(draftkingsHome.row);
    expect(held).toEqual({
      eventId: EVENT_ID,
      book: 'draftkings',
      market: 'moneyline',
      participant: null,
      statCategory: null,
      selection: 'home',
      line: null,
      priceAmerican: -160,
      ts: T0,
    });
  });

  it('still closes at its last price when it was pulled at kickoff', () => {
    closing.handleBatch([{ type: 'event', event: event({ status: 'live', isLive: true, updatedAt: START + 120_000 }) }], START + 120_000);
    const close = closing.closingOf(EVENT_ID).find((c) => c.book === 'draftkings' && c.selection === 'home');
    expect(close).toMatchObject({ rowKey: draftkingsHome.key, priceAmerican: -160, oddsTs: T0, bookNoVigProbability: 0.600877 });
    expect(close?.noVig.power).toBe(0.583983);
  });
});
