/**
 * Spliced pages take their memory from a pool that gets it back only through `releasePage`
 * (odds-fragments.ts): a page not given back never shares memory with a later one, a page given
 * back lends its memory to the next page of its size, and small pages stay out of the pool.
 */
import fastJson from 'fast-json-stringify';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../pipeline/clock.js';
import { buildBoard } from '../../bench/board-fixture.js';
import { Catalog } from '../views/catalog.js';
import { paginatedEnvelope } from './common.js';
import { oddsListItemSchema, presentOdds } from './odds.js';
import { OddsFragments, RawRows, envelopeSerializer, pageMemoryHeld, releasePage } from './odds-fragments.js';

const catalog = new Catalog();
const schema = paginatedEnvelope(oddsListItemSchema, { type: 'object', properties: { count: { type: 'integer' } } });
const serialize = (fastJson as unknown as (s: object) => (x: unknown) => string)(schema);
const spliced = envelopeSerializer(schema);
const { board, events } = buildBoard(1, new ManualClock(Date.UTC(2026, 10, 21, 18)));
const first = events[0];
if (!first) throw new Error('fixture');
const event = first;
const rows = board.rowsOf(event.id);
const fragments = new OddsFragments(catalog, 'list');
const envelope = (n: number): object => ({
  success: true,
  pagination: { limit: n, offset: 0, has_more: true, next_offset: n },
  meta: { count: n },
  updated_at: '2026-11-21T18:00:00.000Z',
});

/** A page of the first `n` rows, as the route writes it. */
function pageOf(n: number): Buffer {
  const main = board.mainLines(event.id);
  const out = spliced({ ...envelope(n), data: new RawRows(rows.slice(0, n).map((r) => fragments.of(r, event, main))) });
  if (!Buffer.isBuffer(out)) throw new Error('a spliced page is bytes');
  return out;
}

/** The bytes Fastify's own serializer writes for the same page. */
function expected(n: number): string {
  const main = board.mainLines(event.id);
  return serialize({ ...envelope(n), data: rows.slice(0, n).map((r) => presentOdds(catalog, r, event, main)) });
}

describe('page memory', () => {
  it('is never shared with a page that was not given back', () => {
    const a = pageOf(100);
    const b = pageOf(100);
    expect(b.buffer).not.toBe(a.buffer);
    expect(a.toString()).toBe(expected(100));
    expect(b.toString()).toBe(expected(100));
  });

  it('of a page given back goes to the next page of its size, written whole', () => {
    const a = pageOf(100);
    const memory = a.buffer;
    releasePage(a);
    const b = pageOf(100);
    expect(b.buffer).toBe(memory);
    expect(b.toString()).toBe(expected(100));
  });

  it('given back twice is lent once', () => {
    const a = pageOf(100);
    releasePage(a);
    releasePage(a);
    const b = pageOf(100);
    const c = pageOf(100);
    expect(b.buffer).toBe(a.buffer);
    expect(c.buffer).not.toBe(a.buffer);
  });

  it('of a page of a few rows is not kept', () => {
    const held = pageMemoryHeld();
    const small = pageOf(3);
    expect(small.length).toBeLessThan(16 * 1024);
    releasePage(small);
    expect(pageMemoryHeld()).toBe(held);
    expect(small.toString()).toBe(expected(3));
  });
});
