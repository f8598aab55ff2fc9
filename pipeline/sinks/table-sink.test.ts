import { pino } from 'pino';
import type { Logger } from 'pino';
import { describe, expect, it } from 'vitest';
import { NO_BATCH } from '../bus/index.js';
import { StoreError } from '../store/index.js';
import type { OlapStore, StoreRow } from '../store/index.js';
import { TableSink } from './table-sink.js';

/** A store that keeps what it was asked to insert. */
function recordingStore(): OlapStore & { inserts: { table: string; rows: readonly StoreRow[] }[] } {
  const inserts: { table: string; rows: readonly StoreRow[] }[] = [];
  return {
    kind: 'chdb',
    inserts,
    exec: async () => undefined,
    insert: async (table, rows) => {
      inserts.push({ table, rows });
    },
    query: async () => [],
    close: async () => undefined,
  };
}

function busyFor(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // a costly row, as a 3 KB opportunity row is
  }
}

describe('TableSink.writeRecords', () => {
  it('maps every record to its row in order, leaves out tombstones, and inserts them as one batch', async () => {
    const store = recordingStore();
    const sink = new TableSink(store, 'odds_ticks', pino({ level: 'silent' }));
    const records = Array.from({ length: 1000 }, (_, i) => ({ offset: i, value: i % 10 === 9 ? null : { price: -100 - i } }));
    await sink.writeRecords(records, (r) => (r.value ? { offset: r.offset, price: r.value.price } : null), NO_BATCH);
    expect(store.inserts).toHaveLength(1);
    expect(store.inserts[0]?.table).toBe('odds_ticks');
    expect(store.inserts[0]?.rows).toHaveLength(900);
    expect(store.inserts[0]?.rows.slice(0, 2)).toEqual([
      { offset: 0, price: -100 },
      { offset: 1, price: -101 },
    ]);
    expect(store.inserts[0]?.rows.at(-1)).toEqual({ offset: 998, price: -1098 });
    expect(sink.counters).toMatchObject({ rowsWritten: 900, batchesWritten: 1, rowsFailed: 0 });
  });

  it('lets the event loop run while a batch that is slow to map is mapped', async () => {
    const store = recordingStore();
    const sink = new TableSink(store, 'opportunities', pino({ level: 'silent' }));
    const seen: string[] = [];
    // Queued before the write starts: it runs at the first yield, before the insert.
    setImmediate(() => seen.push('other work'));
    await sink.writeRecords(
      Array.from({ length: 200 }, (_, i) => i),
      (i) => {
        busyFor(0.1);
        if (i === 199) seen.push('last row mapped');
        return { i };
      },
      NO_BATCH,
    );
    expect(seen).toEqual(['other work', 'last row mapped']);
    expect(store.inserts[0]?.rows).toHaveLength(200);
  });

  it('inserts nothing for a batch of tombstones', async () => {
    const store = recordingStore();
    const sink = new TableSink(store, 'odds_latest', pino({ level: 'silent' }));
    await sink.writeRecords([null, null], (r) => r, NO_BATCH);
    expect(store.inserts).toEqual([]);
    expect(sink.counters).toMatchObject({ rowsWritten: 0, batchesWritten: 0 });
  });

  it('hands the records and the mapper to a store that writes rows as it maps them, and counts what it wrote', async () => {
    const calls: { table: string; records: readonly unknown[] }[] = [];
    const store: OlapStore = {
      ...recordingStore(),
      insert: async () => {
        throw new Error('insert is not used when the store maps the records itself');
      },
      insertMapped: async (table, records, toRow) => {
        calls.push({ table, records });
        return records.filter((r) => toRow(r) !== null).length;
      },
    };
    const sink = new TableSink(store, 'odds_ticks', pino({ level: 'silent' }));
    await sink.writeRecords([1, 2, 3, 4, 5], (n) => (n % 2 === 0 ? null : { n }), NO_BATCH);
    expect(calls).toEqual([{ table: 'odds_ticks', records: [1, 2, 3, 4, 5] }]);
    expect(sink.counters).toMatchObject({ rowsWritten: 3, batchesWritten: 1, rowsFailed: 0 });
    await sink.writeRecords([2, 4], (n) => (n % 2 === 0 ? null : { n }), NO_BATCH);
    expect(sink.counters).toMatchObject({ rowsWritten: 3, batchesWritten: 1 });
  });

  it('counts the rows of a batch that failed for good, when the store maps the records itself', async () => {
    const store: OlapStore = {
      ...recordingStore(),
      insertMapped: async () => {
        throw new StoreError('Syntax error', false);
      },
    };
    const sink = new TableSink(store, 'opportunities', pino({ level: 'silent' }));
    await expect(sink.writeRecords([1, 2, 3], (n) => (n === 2 ? null : { n }), NO_BATCH)).rejects.toThrow(
      'insert into opportunities failed: Syntax error',
    );
    expect(sink.counters).toMatchObject({ rowsWritten: 0, batchesWritten: 0, rowsFailed: 2 });
  });
});

/** A store that refuses the next `refusals` inserts as an unreachable server would, then takes them. */
function refusingStore(refusals: number, error: () => StoreError): OlapStore & { inserts: StoreRow[][]; attempts: number } {
  let left = refusals;
  const store = {
    ...recordingStore(),
    inserts: [] as StoreRow[][],
    attempts: 0,
    insert: async (_table: string, rows: readonly StoreRow[]) => {
      store.attempts++;
      if (left-- > 0) throw error();
      store.inserts.push([...rows]);
    },
  };
  return store;
}

const unreachable = (): StoreError => new StoreError('connect ECONNREFUSED 127.0.0.1:8123', true, { unreachable: true });

/** A logger whose messages are kept, in order. */
function keptLog(): { logger: Logger; messages: string[] } {
  const messages: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => messages.push((JSON.parse(line) as { msg: string }).msg) });
  return { logger, messages };
}

describe('TableSink and a store that does not answer', () => {
  it('tries the batch again past its retries, the backoff doubling up to 30 s, and says so once when the store stops answering and once when it answers', async () => {
    const store = refusingStore(12, unreachable);
    const waits: number[] = [];
    const { logger, messages } = keptLog();
    const sink = new TableSink(store, 'odds_ticks', logger, { retries: 2, sleep: async (ms) => void waits.push(ms) });
    await sink.write([{ id: 1 }, { id: 2 }, { id: 3 }], NO_BATCH);
    expect(waits).toEqual([200, 400, 800, 1600, 3200, 6400, 12_800, 25_600, 30_000, 30_000, 30_000, 30_000]);
    expect(store.inserts).toEqual([[{ id: 1 }, { id: 2 }, { id: 3 }]]);
    expect(sink.counters).toMatchObject({ rowsWritten: 3, batchesWritten: 1, rowsFailed: 0 });
    expect(messages).toEqual([
      'the store does not answer: the batches for this table wait in the log and are tried again until it does',
      'the store answers again',
    ]);
  });

  it('gives up a batch waiting for the store once released (the pipeline stops), without counting its rows as failed', async () => {
    const store = refusingStore(Number.POSITIVE_INFINITY, unreachable);
    const sink = new TableSink(store, 'odds_ticks', pino({ level: 'silent' }), { sleep: () => new Promise(() => undefined) });
    const writing = sink.write([{ id: 1 }], NO_BATCH);
    // Waiting: its first attempt refused, the backoff that never ends begun.
    while (store.attempts === 0) await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    sink.release();
    await expect(writing).rejects.toThrow('insert into odds_ticks failed after 2 attempts: connect ECONNREFUSED 127.0.0.1:8123');
    expect(sink.counters).toMatchObject({ rowsWritten: 0, rowsFailed: 0 });
  });

  it('still fails a batch after its retries when the store answers with a refusal for now', async () => {
    const store = refusingStore(5, () => new StoreError('Code: 241. DB::Exception: Memory limit (total) exceeded', true));
    const sink = new TableSink(store, 'odds_ticks', pino({ level: 'silent' }), { retries: 2, sleep: async () => undefined });
    await expect(sink.write([{ id: 1 }], NO_BATCH)).rejects.toThrow('insert into odds_ticks failed after 3 attempts: Code: 241.');
    expect(store.attempts).toBe(3);
    expect(sink.counters).toMatchObject({ rowsWritten: 0, rowsFailed: 1 });
  });
});
