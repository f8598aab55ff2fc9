/**
 * Rows served as ready JSON fragments must be the bytes the route's own serializer wrote from
 * presented objects, and a fragment must follow its row, its event and its main line.
 */
import fastJson from 'fast-json-stringify';
import { describe, expect, it } from 'vitest';
import { oddsRowKey } from '../../schemas/index.js';
import type { OddsRow } from '../../schemas/index.js';
import { ManualClock } from '../../pipeline/clock.js';
import { buildBoard, repriced } from '../../bench/board-fixture.js';
import { gc } from '../../test/support/gc.js';
import { Catalog } from '../views/catalog.js';
import { paginatedEnvelope, paginationSchema } from './common.js';
import { oddsListItemSchema, oddsRowSchema, presentOdds } from './odds.js';
import { OddsFragments, RawRows, envelopeSerializer, readyJson } from './odds-fragments.js';

const catalog = new Catalog();
const schema = paginatedEnvelope(oddsListItemSchema, {
  type: 'object',
  properties: { count: { type: 'integer' }, total: { type: 'integer' } },
});
const compile = fastJson as unknown as (s: object) => (x: unknown) => string;
const serialize = compile(schema);
/** The shape of an /odds/delta answer: rows of oddsRowSchema, which requires the core fields. */
const deltaSchema = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    data: { type: 'array', items: oddsRowSchema },
    removed: { type: 'array' },
    pagination: paginationSchema,
    meta: { type: 'object', properties: { count: { type: 'integer' } } },
  },
};
const serializeDelta = compile(deltaSchema);

describe('odds fragments', () => {
  it('join into the same bytes the schema serializer writes for presented rows', () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 21, 18));
    const { board } = buildBoard(3, clock);
    const fragments = new OddsFragments(catalog, 'list');
    const rowFragments = new OddsFragments(catalog, 'row');
    const spliced = envelopeSerializer(schema);
    const delta = envelopeSerializer(deltaSchema);
    for (const e of board.activeEvents()) {
      const main = board.mainLines(e.id);
      const rows = board.rowsOf(e.id);
      const envelope = {
        success: true,
        pagination: { limit: 100, offset: 0, has_more: false, next_offset: null },
        meta: { count: rows.length, total: rows.length },
        updated_at: '2026-11-21T18:00:00.000Z',
      };
      const expected = serialize({ ...envelope, data: rows.map((r) => presentOdds(catalog, r, e, main)) });
      expect(spliced({ ...envelope, data: new RawRows(rows.map((r) => fragments.of(r, e, main))) }).toString()).toBe(expected);
      expect(spliced({ ...envelope, data: [] })).toBe(serialize({ ...envelope, data: [] }));
      const changes = { success: true, removed: [], pagination: envelope.pagination, meta: { count: rows.length } };
      expect(delta({ ...changes, data: new RawRows(rows.map((r) => rowFragments.of(r, e, main))) }).toString()).toBe(
        serializeDelta({ ...changes, data: rows.map((r) => presentOdds(catalog, r, e, main)) }),
      );
      expect(JSON.parse(JSON.stringify(new RawRows(rows.slice(0, 2).map((r) => fragments.of(r, e, main)))))).toEqual(
        JSON.parse(JSON.stringify(rows.slice(0, 2).map((r) => presentOdds(catalog, r, e, main)))),
      );
    }
  });

  it('splice rows with multi-byte characters into the bytes the schema serializer writes', () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 21, 18));
    const { board, events } = buildBoard(1, clock);
    const e0 = events[0];
    if (!e0) throw new Error('fixture');
    const e = { ...e0, homeTeamId: 'atlético-málaga', awayTeamId: 'bayern-münchen' };
    const main = board.mainLines(e.id);
    const rows = board.rowsOf(e.id).slice(0, 5);
    const envelope = { success: true, pagination: { limit: 5, offset: 0, has_more: true, next_offset: 5 }, updated_at: 'ü' };
    const fragments = new OddsFragments(catalog, 'list');
    const page = envelopeSerializer(schema)({ ...envelope, data: new RawRows(rows.map((r) => fragments.of(r, e, main))) });
    const expected = serialize({ ...envelope, data: rows.map((r) => presentOdds(catalog, r, e, main)) });
    expect(expected).toContain('münchen');
    expect(Buffer.isBuffer(page) && page.equals(Buffer.from(expected, 'utf8'))).toBe(true);
  });

  it('are serialized once per change of the row, its event or its main line', () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 21, 18));
    const { board, events } = buildBoard(1, clock);
    const e = events[0];
    if (!e) throw new Error('fixture');
    const fragments = new OddsFragments(catalog, 'list');
    const row = board.rowsOf(e.id).find((r) => r.market === 'point_spread' && r.line === -2.5) as OddsRow;
    const read = (r: OddsRow, ev = e): string => readyJson(fragments.of(r, ev, board.mainLines(ev.id))).toString();
    const first = read(row);
    expect(read(row)).toBe(first);
    expect(fragments.serialized).toBe(1);

    const moved = repriced(row, clock.now() + 1000);
    board.applyChange({ key: oddsRowKey(moved), eventId: moved.eventId, row: moved, changedAt: clock.now() });
    expect(JSON.parse(read(moved))).toMatchObject({ odds_american: moved.priceAmerican, is_main_line: false });
    expect(fragments.serialized).toBe(2);

    const renamed = { ...e, startTime: e.startTime + 60_000 };
    board.applyEvent(renamed);
    expect(JSON.parse(read(moved, renamed))).toMatchObject({ event_start_time: new Date(renamed.startTime).toISOString() });
    expect(fragments.serialized).toBe(3);

    // Every book but one drops -3.5 and -4.5: the most quoted home line is now -2.5, so this row turns main.
    for (const r of board.rowsOf(e.id)) {
      if (r.market === 'point_spread' && Math.abs(r.line ?? 0) !== 2.5 && r.book !== 'pinnacle')
        board.applyChange({ key: oddsRowKey(r), eventId: r.eventId, row: null, changedAt: clock.now() });
    }
    expect(JSON.parse(read(moved, renamed))).toMatchObject({ is_main_line: true, is_alternate_line: false });
    expect(fragments.serialized).toBe(4);
  });

  it('keep at most their capacity', () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 21, 18));
    const { board, events } = buildBoard(1, clock);
    const e = events[0];
    if (!e) throw new Error('fixture');
    const fragments = new OddsFragments(catalog, 'list', 10);
    const rows = board.rowsOf(e.id);
    for (const r of rows.slice(0, 20)) fragments.of(r, e, board.mainLines(e.id));
    fragments.of(rows[15] as OddsRow, e, board.mainLines(e.id));
    fragments.of(rows[0] as OddsRow, e, board.mainLines(e.id));
    expect(fragments.serialized).toBe(21);
  });

  it('let a replaced row go with its fragment, however much room the ring has left', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 21, 18));
    const { board, events } = buildBoard(1, clock);
    const e = events[0];
    if (!e) throw new Error('fixture');
    const fragments = new OddsFragments(catalog, 'list', 1000);
    // A copy stands for the board's object before a change replaced it: nothing else holds it.
    let replaced: OddsRow | null = { ...(board.rowsOf(e.id)[0] as OddsRow) };
    const ref = new WeakRef(replaced);
    fragments.of(replaced, e, board.mainLines(e.id));
    replaced = null;
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    expect(ref.deref()).toBeUndefined();
  });
});
