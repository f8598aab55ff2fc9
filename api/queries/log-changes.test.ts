// A client resuming from position p (another replica's, or this one's before a restart) must get
// what changed strictly after p: the record at offset p - 1 is already in what it holds (sending
// it again would repeat the frame it resumed from), the record at offset p is not.
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { MemoryBus, observeDeliveries } from '../../pipeline/bus/index.js';
import { TOPICS, TOPIC_CONFIGS } from '../../schemas/index.js';
import type { OddsChange, OddsRow } from '../../schemas/index.js';
import { LiveBoard, startChangelogViews } from '../views/index.js';
import { catchUpRows, readLogSince } from './log-changes.js';
import { PositionTrail } from './log-position.js';
import { changelogReader } from './lost-removals.js';

const T0 = Date.UTC(2026, 10, 29, 2);

function change(key: 'home' | 'away' | 'draw', price: number): OddsChange {
  const row: OddsRow = {
    id: `id-${key}`,
    eventId: 'nba-1',
    book: 'pinnacle',
    market: 'moneyline',
    selection: key,
    line: null,
    participant: null,
    statCategory: null,
    priceAmerican: price,
    priceDecimal: 1 + 100 / price,
    probability: price / (price + 100),
    ts: T0,
    oddsChangedAt: T0,
    observedAt: T0,
    isLive: false,
    bookEventId: 'pin-1',
    selectionId: null,
    isActive: true,
    suspendedSince: null,
  };
  return { key, eventId: 'nba-1', row, changedAt: T0 };
}

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(done()).toBe(true);
}

describe('catching a client up from a log position', () => {
  it('starts strictly after the position: the last change the client holds is not sent again, the next one is', async () => {
    const bus = new MemoryBus();
    const board = new LiveBoard();
    const trail = new PositionTrail('memory', board.log, (topic) => TOPIC_CONFIGS[topic].partitions, changelogReader(bus));
    const views = startChangelogViews(observeDeliveries(bus, trail.record), board, 'r1', pino({ level: 'silent' }));
    const send = (changes: OddsChange[]): Promise<void> =>
      bus.producer().send(
        TOPICS.snapshot,
        changes.map((c) => ({ key: c.key, partitionKey: c.eventId, value: c })),
      );
    await send([change('home', 120), change('away', 150)]);
    await until(() => board.rowCount === 2);
    // What a client holds: both rows, 'away' last.
    const p = trail.now();
    await send([change('draw', 300), change('home', 125)]);
    await until(() => board.row('nba-1', 'home')?.priceAmerican === 125);

    const read = await readLogSince(trail, changelogReader(bus), { log: p.log, offsets: p.offsets }, board, 0);
    if (typeof read === 'string') throw new Error(`refused: ${read}`);
    expect([...read.rows.keys()].sort()).toEqual(['draw', 'home']);
    expect([...(catchUpRows(board, read)?.keys() ?? [])].sort()).toEqual(['draw', 'home']);

    // From where the board stands now, nothing is left to send.
    const now = trail.now();
    const none = await readLogSince(trail, changelogReader(bus), { log: now.log, offsets: now.offsets }, board, 0);
    if (typeof none === 'string') throw new Error(`refused: ${none}`);
    expect([...none.rows.keys()]).toEqual([]);
    expect([...(catchUpRows(board, none)?.keys() ?? [])]).toEqual([]);
    await Promise.all(views.map((v) => v.stop()));
    await bus.close();
  });
});
