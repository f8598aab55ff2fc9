/**
 * SPEC "Endpoints > Odds > GET /odds/delta": changed rows and removed rows since a time, each
 * once, with a next_since that continues exactly; 400 without or with a malformed since; 410
 * resync_required before the change window; the free tier's delta follows its delayed board.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawTick } from '../../schemas/index.js';
import { startConformance } from '../support/fixture.js';
import type { Conformance } from '../support/fixture.js';

type Row = Record<string, unknown>;
let c: Conformance;

beforeAll(async () => {
  c = await startConformance();
});
afterAll(async () => {
  await c.sys.close();
});

function tick(book: string, outcome: string, market: RawTick['market'] = 'moneyline'): RawTick {
  const t = c.ticks.find((x) => x.book === book && x.outcome === outcome && x.market === market);
  if (!t) throw new Error(`no fixture tick ${book} ${outcome}`);
  return t;
}

async function snapshot(key: string): Promise<{ rows: Map<string, Row>; since: string }> {
  const r = await c.sys.get('/api/v1/odds?limit=1000', key);
  return {
    rows: new Map((r.body['data'] as Row[]).map((x) => [x['id'] as string, x])),
    since: (r.body['meta'] as Row)['next_since'] as string,
  };
}

/** Polls until has_more is false; returns the merged answer and the last next_since. */
async function poll(since: string, key: string, extra = ''): Promise<{ data: Row[]; removed: Row[]; next: string; pages: number }> {
  const data: Row[] = [];
  const removed: Row[] = [];
  let next = since;
  for (let pages = 1; pages < 1000; pages++) {
    const r = await c.sys.get(`/api/v1/odds/delta?since=${encodeURIComponent(next)}${extra}`, key);
    expect(r.status).toBe(200);
    data.push(...(r.body['data'] as Row[]));
    removed.push(...(r.body['removed'] as Row[]));
    next = (r.body['meta'] as Row)['next_since'] as string;
    if (!(r.body['pagination'] as Row)['has_more']) return { data, removed, next, pages };
  }
  throw new Error('delta did not end');
}

describe('GET /odds/delta', () => {
  it('answers 400 invalid_request without since or with a malformed one', async () => {
    const key = c.keys.sharp;
    const missing = await c.sys.get('/api/v1/odds/delta', key);
    expect([missing.status, missing.body['error']]).toEqual([
      400,
      expect.objectContaining({ code: 'invalid_request', message: "Missing required query parameter 'since'" }),
    ]);
    for (const bad of ['yesterday', '1700000000', '2026-05-01', '2026-13-01T00:00:00Z', '2026-02-30T10:00:00Z', '2026-05-01T10:00:00']) {
      const r = await c.sys.get(`/api/v1/odds/delta?since=${encodeURIComponent(bad)}`, key);
      expect([bad, r.status, (r.body['error'] as Row)['code'], (r.body['error'] as Row)['message']]).toEqual([
        bad,
        400,
        'invalid_request',
        expect.stringContaining("'since'"),
      ]);
    }
  });

  it('answers 410 resync_required for a since before the change window', async () => {
    const r = await c.sys.get('/api/v1/odds/delta?since=2001-01-01T00:00:00Z', c.keys.sharp);
    expect(r.status).toBe(410);
    expect(r.body['error']).toEqual({
      code: 'resync_required',
      message: expect.stringMatching(/^Parameter 'since' is older than the change window \(oldest answerable: .+\); reload \/odds/),
      docs: '/api/v1/docs/errors#resync_required',
    });
  });

  it('returns changed rows in their current state and removed rows, each once, and continues exactly', async () => {
    const key = c.keys.sharp;
    const { since } = await snapshot(key);
    const quiet = await c.sys.get(`/api/v1/odds/delta?since=${encodeURIComponent(since)}`, key);
    expect(quiet.body).toMatchObject({ success: true, data: [], removed: [], pagination: { has_more: false, next_offset: null } });
    await c.push([{ ...tick('pinnacle', 'Los Angeles Lakers'), priceAmerican: -130 }]);
    await c.push([
      { ...tick('pinnacle', 'Los Angeles Lakers'), priceAmerican: -135 },
      { ...tick('draftkings', 'Boston Celtics', 'point_spread'), status: 'suspended', priceAmerican: null },
    ]);
    const r = await c.sys.get(`/api/v1/odds/delta?since=${encodeURIComponent(since)}`, key);
    expect(r.status).toBe(200);
    expect((r.body['data'] as Row[]).map((x) => [x['sportsbook'], x['selection_type'], x['odds_american']])).toEqual([
      ['pinnacle', 'home', -135],
    ]);
    expect(r.body['removed']).toEqual([
      {
        id: expect.any(String),
        event_id: expect.any(String),
        sportsbook: 'draftkings',
        market: 'point_spread',
        removed_at: expect.any(String),
      },
    ]);
    const meta = r.body['meta'] as Row;
    expect(meta).toMatchObject({ since: expect.any(String), count: 2, changed_count: 1, removed_count: 1 });
    expect(meta['next_since']).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z$/);
    const after = await c.sys.get(`/api/v1/odds/delta?since=${encodeURIComponent(meta['next_since'] as string)}`, key);
    expect(after.body).toMatchObject({ data: [], removed: [] });
    await c.push([tick('draftkings', 'Boston Celtics', 'point_spread'), tick('pinnacle', 'Los Angeles Lakers')]);
  });

  it('pages by next_since when the delta exceeds limit, without gap or double', async () => {
    const key = c.keys.sharp;
    const { since } = await snapshot(key);
    const moved = c.ticks
      .filter((t) => t.market === 'moneyline' && t.league === 'nba')
      .map((t) => ({ ...t, priceAmerican: (t.priceAmerican ?? 100) > 0 ? (t.priceAmerican ?? 100) + 5 : (t.priceAmerican ?? -100) - 5 }));
    await c.push(moved);
    const paged = await poll(since, key, '&limit=5');
    expect(paged.pages).toBe(3);
    expect(paged.data).toHaveLength(12);
    expect(new Set(paged.data.map((x) => x['id'])).size).toBe(12);
    const whole = await poll(since, key);
    expect(whole.data.map((x) => x['id'])).toEqual(paged.data.map((x) => x['id']));
    await c.push(c.ticks.filter((t) => t.market === 'moneyline' && t.league === 'nba'));
  });

  it("keeps its filters and the tier's sportsbooks", async () => {
    const { since } = await snapshot(c.keys.sharp);
    await c.push([
      { ...tick('pinnacle', 'Kansas City Chiefs'), priceAmerican: -160 },
      { ...tick('fanduel', 'Kansas City Chiefs'), priceAmerican: -160 },
    ]);
    const dk = await poll(since, c.keys.sharp, '&sportsbook=fanduel');
    expect(dk.data.map((x) => x['sportsbook'])).toEqual(['fanduel']);
    const nba = await poll(since, c.keys.sharp, '&league=nba');
    expect(nba.data).toEqual([]);
    const hobby = await poll(since, c.keys.hobby);
    expect(hobby.data.map((x) => x['sportsbook'])).toEqual(['fanduel']);
    await c.push([tick('pinnacle', 'Kansas City Chiefs'), tick('fanduel', 'Kansas City Chiefs')]);
  });

  it('lets a client mirror /odds exactly: snapshot, then deltas from its next_since', async () => {
    for (const key of [c.keys.sharp, c.keys.hobby]) {
      const mirror = await snapshot(key);
      let since = mirror.since;
      const apply = async (): Promise<void> => {
        const d = await poll(since, key, '&limit=3');
        for (const row of d.data) mirror.rows.set(row['id'] as string, row);
        for (const gone of d.removed) mirror.rows.delete(gone['id'] as string);
        since = d.next;
      };
      await c.push([
        { ...tick('fanduel', 'Over', 'total_points'), status: 'suspended', priceAmerican: null },
        { ...tick('draftkings', 'Arsenal'), priceAmerican: 140 },
      ]);
      await apply();
      await c.push([
        { ...tick('draftkings', 'Arsenal'), priceAmerican: 145 },
        tick('fanduel', 'Over', 'total_points'),
        { ...tick('betmgm', 'Boston Celtics'), priceAmerican: 115 },
      ]);
      await apply();
      const now = await snapshot(key);
      expect([...mirror.rows.entries()].sort()).toEqual([...now.rows.entries()].sort());
    }
    await c.push([tick('draftkings', 'Arsenal'), tick('betmgm', 'Boston Celtics')]);
  });

  it('serves the free tier the delta of its delayed board', async () => {
    const free = c.keys.free;
    c.advance(61_000); // what earlier tests changed reaches the delayed board first
    const before = await snapshot(free);
    await c.push([{ ...tick('draftkings', 'Chelsea'), priceAmerican: 175 }]);
    const early = await c.sys.get(`/api/v1/odds/delta?since=${encodeURIComponent(before.since)}`, free);
    expect(early.headers.get('x-data-delay')).toBe('60');
    expect(early.body['data']).toEqual([]);
    c.advance(30_000);
    expect((await c.sys.get(`/api/v1/odds/delta?since=${encodeURIComponent(before.since)}`, free)).body['data']).toEqual([]);
    c.advance(31_000);
    const late = await poll(before.since, free);
    expect(late.data.map((x) => [x['sportsbook'], x['odds_american']])).toEqual([['draftkings', 175]]);
    await c.push([tick('draftkings', 'Chelsea')]);
    c.advance(61_000);
  });
});
