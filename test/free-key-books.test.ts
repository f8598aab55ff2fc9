/**
 * What went wrong: a free key, which may see two sportsbooks, learned all of them through
 * `/events`: `books`, `book_count` and `external_ids` listed every book of the game, and
 * `/events?sportsbook=pinnacle` told which games a book it may not see lists. Wherever an
 * event lists books, it now lists only those the key's tier may see.
 */
import { describe, expect, it } from 'vitest';
import { conformanceForFile } from './support/fixture.js';
import type { Conformance } from './support/fixture.js';

type Row = Record<string, unknown>;
let c: Conformance;
conformanceForFile((started) => {
  c = started;
});

const FREE_BOOKS = ['draftkings', 'fanduel'];

function expectOnly(event: Row, books: string[]): void {
  const listed = event['books'] as string[];
  expect(
    listed.every((b) => books.includes(b)),
    JSON.stringify(event),
  ).toBe(true);
  expect(Object.keys(event['external_ids'] as Row).sort()).toEqual([...listed].sort());
  expect(event['book_count']).toBe(listed.length);
}

describe('books a free key sees', () => {
  it('lists only the free books in /events, /events/{id} and the comparison meta', async () => {
    const events = (await c.sys.get('/api/v1/events', c.keys.free)).body['data'] as Row[];
    expect(events.length).toBe(3);
    for (const e of events) {
      expectOnly(e, FREE_BOOKS);
      expectOnly((await c.sys.get(`/api/v1/events/${String(e['id'])}`, c.keys.free)).body['data'] as Row, FREE_BOOKS);
    }
    const nba = events.find((e) => e['league'] === 'nba') as Row;
    expect(nba['books']).toEqual(['draftkings', 'fanduel']);
    expect(nba['external_ids']).toEqual({ draftkings: 'dk-100', fanduel: 'fd-100' });
    const comparison = await c.sys.get(`/api/v1/odds/comparison?event=${String(nba['id'])}`, c.keys.free);
    expectOnly((comparison.body['meta'] as Row)['event'] as Row, FREE_BOOKS);
  });

  it('refuses a free key filtering events by a book it may not see, 403 as on /odds', async () => {
    const r = await c.sys.get('/api/v1/events?sportsbook=pinnacle', c.keys.free);
    expect([r.status, (r.body['error'] as Row)['code']]).toEqual([403, 'feature_required']);
    expect((await c.sys.get('/api/v1/events?sportsbook=draftkings', c.keys.free)).status).toBe(200);
  });

  it('still lists every book of the game to a sharp key', async () => {
    const events = (await c.sys.get('/api/v1/events?league=nba', c.keys.sharp)).body['data'] as Row[];
    expect((events[0]?.['books'] as string[]).sort()).toEqual(['betmgm', 'bovada', 'draftkings', 'espnbet', 'fanduel', 'pinnacle']);
    expect(Object.keys(events[0]?.['external_ids'] as Row)).toHaveLength(6);
  });
});
