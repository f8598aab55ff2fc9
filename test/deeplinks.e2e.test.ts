/**
 * Deep links over HTTP on the fixture board: `deep_link` on odds rows and opportunity legs,
 * `GET /deeplink/{id}` filling the book's templates from the row's own ids (state applied),
 * unknown ids (404 or `fallback`), and `POST /deeplinks/batch`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtInTemplates } from '../api/deeplinks/index.js';
import { startConformance } from './support/fixture.js';
import type { Conformance } from './support/fixture.js';

type Row = Record<string, unknown>;
let c: Conformance;
let rows: Row[];

beforeAll(async () => {
  c = await startConformance();
  rows = (await c.sys.get('/api/v1/odds?limit=1000', c.keys.sharp)).body['data'] as Row[];
});
afterAll(async () => {
  await c.sys.close();
});

const rowOf = (book: string, market: string, selection: string, league = 'nba'): Row => {
  const r = rows.find(
    (x) => x['sportsbook'] === book && x['market'] === market && x['selection_type'] === selection && x['league'] === league,
  );
  if (!r) throw new Error(`fixture has no ${book} ${market} ${selection}`);
  return r;
};

async function follow(
  path: string,
): Promise<{ status: number; location: string | null; type: string | null; cache: string | null; body: Row | null }> {
  const res = await fetch(new URL(path, c.sys.url), { redirect: 'manual' });
  const text = await res.text();
  return {
    status: res.status,
    location: res.headers.get('location'),
    type: res.headers.get('x-deep-link-type'),
    cache: res.headers.get('cache-control'),
    body: text ? (JSON.parse(text) as Row) : null,
  };
}

describe('deep_link on odds rows', () => {
  it('points at the resolver, an absolute URL on the server, for books with templates and is absent for books without', () => {
    const dk = rowOf('draftkings', 'point_spread', 'home');
    expect(dk['deep_link']).toBe(`${c.sys.url}/api/v1/deeplink/${dk['id'] as string}`);
    expect('deep_link' in rowOf('bovada', 'moneyline', 'home')).toBe(false);
    expect(rowOf('betmgm', 'moneyline', 'home')['deep_link']).toBe(
      `${c.sys.url}/api/v1/deeplink/${rowOf('betmgm', 'moneyline', 'home')['id'] as string}`,
    );
  });
});

describe('GET /deeplink/{id}', () => {
  it("fills the selection template from the row's own event and selection ids, without a key", async () => {
    const dk = rowOf('draftkings', 'point_spread', 'home');
    const r = await follow(dk['deep_link'] as string);
    expect(r).toMatchObject({
      status: 302,
      location: 'https://sportsbook.draftkings.com/event/dk-100?outcomes=dk-sel-1',
      type: 'outcome',
      cache: 'private, max-age=60',
    });
  });

  it('falls back to the event page when the row has no selection id', async () => {
    const r = await follow(rowOf('draftkings', 'moneyline', 'away')['deep_link'] as string);
    expect(r).toMatchObject({ status: 302, location: 'https://sportsbook.draftkings.com/event/dk-100', type: 'event' });
  });

  it("applies state where the book's URL depends on it (default pa), case-insensitively", async () => {
    const link = rowOf('betmgm', 'moneyline', 'home')['deep_link'] as string;
    expect((await follow(link)).location).toBe('https://sports.pa.betmgm.com/en/sports/events/mgm-100');
    expect((await follow(`${link}?state=NJ`)).location).toBe('https://sports.nj.betmgm.com/en/sports/events/mgm-100');
    const bad = await follow(`${link}?state=zz`);
    expect([bad.status, (bad.body?.['error'] as Row)['code']]).toEqual([400, 'invalid_request']);
  });

  it('answers 404 in the error envelope for an unknown id or a book without templates', async () => {
    const unknown = await follow('/api/v1/deeplink/0123456789abcdef');
    expect(unknown.status).toBe(404);
    expect(unknown.body?.['error']).toMatchObject({ code: 'not_found' });
    expect((await follow(`/api/v1/deeplink/${rowOf('bovada', 'moneyline', 'home')['id'] as string}`)).status).toBe(404);
  });

  it('honours fallback on a sportsbook site or this site: a 302 there instead of the 404; any other fallback is 400', async () => {
    const fallback = 'https://sportsbook.draftkings.com/odds?from=links';
    const r = await follow(`/api/v1/deeplink/nope?fallback=${encodeURIComponent(fallback)}`);
    expect(r).toMatchObject({ status: 302, location: fallback, type: 'fallback', cache: 'private, max-age=60' });
    // A resolvable id ignores the fallback.
    const dk = rowOf('draftkings', 'moneyline', 'away');
    expect((await follow(`${dk['deep_link'] as string}?fallback=${encodeURIComponent(fallback)}`)).location).toBe(
      'https://sportsbook.draftkings.com/event/dk-100',
    );
    expect((await follow(`/api/v1/deeplink/nope?fallback=${encodeURIComponent('/odds')}`)).location).toBe('/odds');
    expect((await follow(`/api/v1/deeplink/nope?fallback=${encodeURIComponent('javascript:alert(1)')}`)).status).toBe(400);
    expect((await follow(`/api/v1/deeplink/nope?fallback=${encodeURIComponent('https://example.com/odds')}`)).status).toBe(400);
  });

  it("resolves an id it no longer knows from game_id and book to that book's event page", async () => {
    const event = rowOf('betmgm', 'moneyline', 'home')['event_id'] as string;
    const r = await follow(`/api/v1/deeplink/gone?game_id=${event}&book=betmgm&state=mi`);
    expect(r).toMatchObject({ status: 302, location: 'https://sports.mi.betmgm.com/en/sports/events/mgm-100', type: 'event' });
    expect((await follow(`/api/v1/deeplink/gone?game_id=${event}&book=bovada`)).status).toBe(404);
  });
});

describe('POST /deeplinks/batch', () => {
  it('maps every id to its resolver path or null (unknown id, book without templates)', async () => {
    const dk = rowOf('draftkings', 'point_spread', 'home')['id'] as string;
    const bovada = rowOf('bovada', 'moneyline', 'home')['id'] as string;
    const r = await c.sys.post('/api/v1/deeplinks/batch', { ids: [dk, bovada, 'nope', '__proto__', dk], state: 'NJ' }, c.keys.hobby);
    expect(r.status).toBe(200);
    expect(r.body['data']).toEqual({ [dk]: `/api/v1/deeplink/${dk}?state=nj`, [bovada]: null, nope: null, ['__proto__']: null });
    expect(r.body['meta']).toEqual({ count: 4, resolved: 1, state: 'nj' });
  });

  it('is Hobby and up, and takes 1 to 500 ids', async () => {
    const free = await c.sys.post('/api/v1/deeplinks/batch', { ids: ['x'] }, c.keys.free);
    expect([free.status, (free.body['error'] as Row)['code']]).toEqual([403, 'feature_required']);
    expect((await c.sys.post('/api/v1/deeplinks/batch', { ids: [] }, c.keys.hobby)).status).toBe(400);
    expect((await c.sys.post('/api/v1/deeplinks/batch', {}, c.keys.hobby)).status).toBe(400);
    expect(
      (await c.sys.post('/api/v1/deeplinks/batch', { ids: Array.from({ length: 501 }, (_, i) => `id${i}`) }, c.keys.hobby)).status,
    ).toBe(400);
    expect(
      (await c.sys.post('/api/v1/deeplinks/batch', { ids: Array.from({ length: 500 }, (_, i) => `id${i}`) }, c.keys.hobby)).status,
    ).toBe(200);
    expect((await c.sys.post('/api/v1/deeplinks/batch', { ids: ['x'] })).status).toBe(401);
  });
});

describe('deep_link on opportunities', () => {
  it('gives each leg a resolver URL on the server naming its book (null without templates); it redirects to that book', async () => {
    const templates = builtInTemplates();
    const low = (await c.sys.get('/api/v1/opportunities/low-hold?limit=200', c.keys.sharp)).body['data'] as Row[];
    const legs = low.flatMap((o) => (o['legs'] as Row[]).map((l) => ({ o, l })));
    expect(legs.length).toBeGreaterThan(0);
    for (const { o, l } of legs) {
      const book = l['sportsbook'] as string;
      expect([book, l['deep_link']]).toEqual([
        book,
        templates.has(book) ? `${c.sys.url}/api/v1/deeplink/${o['id'] as string}?book=${book}` : null,
      ]);
    }
    const linked = legs.filter(({ l }) => l['deep_link'] !== null);
    expect(linked.length).toBeGreaterThan(0);
    for (const { l } of linked) {
      const r = await follow(l['deep_link'] as string);
      const home = new URL(templates.get(l['sportsbook'] as string)?.homepage ?? '').hostname.replace(/^(www|sports|sportsbook)\./, '');
      expect([r.status, new URL(r.location ?? 'x:').hostname.endsWith(home)]).toEqual([302, true]);
    }
  });

  it('gives +EV rows the resolver URL of the opportunity', async () => {
    const ev = (await c.sys.get('/api/v1/opportunities/ev?limit=200', c.keys.sharp)).body['data'] as Row[];
    expect(ev.length).toBeGreaterThan(0);
    for (const e of ev)
      expect(e['deep_link']).toBe(
        builtInTemplates().has(e['sportsbook'] as string) ? `${c.sys.url}/api/v1/deeplink/${e['id'] as string}` : null,
      );
  });
});
