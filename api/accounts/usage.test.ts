import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { OlapStore, StoreRow } from '../../pipeline/store/index.js';
import { UsageRecorder, periodStarts } from './usage.js';

/** A store that fails its first insert, then keeps what it is given. */
function flakyStore(): OlapStore & { rows: StoreRow[] } {
  let fail = true;
  const rows: StoreRow[] = [];
  return {
    kind: 'chdb',
    rows,
    exec: async () => {},
    insert: async (_table, r) => {
      if (fail) {
        fail = false;
        throw new Error('store down');
      }
      rows.push(...r);
    },
    query: async () => [],
    close: async () => {},
  };
}

describe('UsageRecorder', () => {
  it('writes one row per minute, key and endpoint, and keeps the counts of a failed flush for the next', async () => {
    const store = flakyStore();
    let now = Date.UTC(2026, 4, 13, 15, 30, 10);
    const usage = new UsageRecorder({ store, logger: pino({ level: 'silent' }), now: () => now, flushMs: 600_000 });
    usage.record('acct_1', 'key_1', 'GET /api/v1/odds', false);
    usage.record('acct_1', 'key_1', 'GET /api/v1/odds', true);
    await usage.flush();
    expect(store.rows).toEqual([]);
    now += 60_000;
    usage.record('acct_1', 'key_1', 'GET /api/v1/odds', false);
    await usage.stop();
    expect(store.rows).toEqual([
      { minute: '2026-05-13 15:30:00', account_id: 'acct_1', key_id: 'key_1', endpoint: 'GET /api/v1/odds', requests: 2, errors: 1 },
      { minute: '2026-05-13 15:31:00', account_id: 'acct_1', key_id: 'key_1', endpoint: 'GET /api/v1/odds', requests: 1, errors: 0 },
    ]);
  });

  it('starts the week on Monday and the month on the 1st, in UTC', () => {
    // Sunday 2026-05-31 23:59 UTC: the week began Monday the 25th.
    const p = periodStarts(Date.UTC(2026, 4, 31, 23, 59));
    expect([p.day, p.week, p.month, p.nextMonth].map((t) => new Date(t).toISOString().slice(0, 10))).toEqual([
      '2026-05-31',
      '2026-05-25',
      '2026-05-01',
      '2026-06-01',
    ]);
  });
});
