/**
 * What went wrong: `state` was accepted on `/odds`, `/odds/delta`, middles and low-hold but did
 * not reach the `deep_link` paths, so a client in New Jersey that asked for `state=nj` was sent
 * to Pennsylvania's site by every per-state book. The paths now carry the state asked for (the
 * resolver honours `?state=` on the link itself); without `state` they are unchanged.
 */
import { describe, expect, it } from 'vitest';
import type { RawTick } from '../schemas/index.js';
import { conformanceForFile } from './support/fixture.js';
import type { Conformance } from './support/fixture.js';

type Row = Record<string, unknown>;
let c: Conformance;
conformanceForFile(async (started) => {
  c = started;
  // FanDuel's Lakers -4.5 / Celtics +4.5 against DraftKings' -2.5 makes a middle (a home win by 3 or 4).
  const dk = c.ticks.find((t) => t.book === 'draftkings' && t.market === 'point_spread' && t.outcome === 'Los Angeles Lakers') as RawTick;
  await c.push([
    { ...dk, book: 'fanduel', bookEventId: 'fd-100', line: -4.5, priceAmerican: -105, selectionId: null },
    { ...dk, book: 'fanduel', bookEventId: 'fd-100', outcome: 'Boston Celtics', line: 4.5, priceAmerican: -115, selectionId: null },
  ]);
});

const data = async (path: string): Promise<Row[]> => {
  const r = await c.sys.get(path, c.keys.sharp);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body['data'] as Row[];
};

async function follow(path: string): Promise<{ status: number; location: string | null }> {
  const res = await fetch(new URL(path, c.sys.url), { redirect: 'manual' });
  await res.text();
  return { status: res.status, location: res.headers.get('location') };
}

const betmgmHome = (rows: Row[]): Row =>
  rows.find((r) => r['sportsbook'] === 'betmgm' && r['market'] === 'moneyline' && r['selection_type'] === 'home') as Row;

describe('deep_link on odds rows', () => {
  it("carries the state asked for (lowercased) on /odds, and the link opens that state's site", async () => {
    const rows = await data('/api/v1/odds?limit=1000&state=NJ');
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows)
      expect([r['id'], r['deep_link']]).toEqual([
        r['id'],
        r['deep_link'] === undefined ? undefined : `${c.sys.url}/api/v1/deeplink/${r['id'] as string}?state=nj`,
      ]);
    const link = betmgmHome(rows)['deep_link'] as string;
    expect(await follow(link)).toEqual({ status: 302, location: 'https://sports.nj.betmgm.com/en/sports/events/mgm-100' });
  });

  it("leaves the paths without a state when none is asked for (the resolver's default, pa)", async () => {
    const row = betmgmHome(await data('/api/v1/odds?limit=1000'));
    expect(row['deep_link']).toBe(`${c.sys.url}/api/v1/deeplink/${row['id'] as string}`);
    expect((await follow(row['deep_link'] as string)).location).toBe('https://sports.pa.betmgm.com/en/sports/events/mgm-100');
  });

  it('carries it through a fields projection, grouping by event, and /odds/delta', async () => {
    const projected = await data('/api/v1/odds?limit=1000&state=nj&fields=deep_link&sportsbook=betmgm');
    expect(projected.map((r) => r['deep_link'])).toEqual(
      projected.map((r) => `${c.sys.url}/api/v1/deeplink/${r['id'] as string}?state=nj`),
    );
    const groups = await data('/api/v1/odds?limit=1000&state=nj&group_by=event&sportsbook=betmgm');
    const grouped = groups.flatMap((g) => g['odds'] as Row[]);
    expect(grouped.length).toBe(projected.length);
    for (const r of grouped) expect(r['deep_link']).toBe(`${c.sys.url}/api/v1/deeplink/${r['id'] as string}?state=nj`);
    const since = ((await c.sys.get('/api/v1/odds?limit=1', c.keys.sharp)).body['meta'] as Row)['next_since'] as string;
    const mgm = c.ticks.filter((t) => t.book === 'betmgm' && t.market === 'moneyline');
    await c.push(mgm.map((t) => ({ ...t, priceAmerican: (t.priceAmerican ?? 100) - 5 })));
    const delta = await data(`/api/v1/odds/delta?since=${encodeURIComponent(since)}&state=ny&sportsbook=betmgm`);
    expect(delta.length).toBe(2);
    for (const r of delta) expect(r['deep_link']).toBe(`${c.sys.url}/api/v1/deeplink/${r['id'] as string}?state=ny`);
    await c.push(mgm); // back to the fixture's prices, which the low-hold test below expects
  });

  it('refuses a state that is not a US state code, naming the parameter', async () => {
    for (const path of ['/api/v1/odds?state=zz', '/api/v1/opportunities/middles?state=zz', '/api/v1/opportunities/low-hold?state=zz']) {
      const r = await c.sys.get(path, c.keys.sharp);
      expect([r.status, r.body['error']], path).toMatchObject([
        400,
        { code: 'invalid_request', message: "Invalid query parameter 'state': 'zz' is not a US state code" },
      ]);
    }
  });
});

describe('deep links on opportunities', () => {
  it('puts the state on every middle leg, after its book', async () => {
    const middles = await data('/api/v1/opportunities/middles?state=nj');
    expect(middles.length).toBeGreaterThan(0);
    for (const m of middles) {
      for (const l of m['legs'] as Row[]) {
        expect(l['deep_link']).toBe(`${c.sys.url}/api/v1/deeplink/${m['id'] as string}?book=${l['sportsbook'] as string}&state=nj`);
        expect((await follow(l['deep_link'] as string)).status).toBe(302);
      }
    }
  });

  it('puts the state on every low-hold leg and side, and echoes it in meta.filters', async () => {
    const r = await c.sys.get('/api/v1/opportunities/low-hold?state=NJ&limit=200', c.keys.sharp);
    expect((r.body['meta'] as { filters: Row }).filters['state']).toBe('nj');
    const rows = r.body['data'] as Row[];
    expect(rows.length).toBeGreaterThan(0);
    const links = rows.flatMap((o) => [
      ...(o['legs'] as Row[]).map((l) => [l['sportsbook'], l['deep_link'], o['id']]),
      ...['side1', 'side2', 'side3'].flatMap((s) =>
        Object.entries(((o[s] as Row | undefined)?.['deep_links'] ?? {}) as Row).map(([book, link]) => [book, link, o['id']]),
      ),
    ]);
    expect(links.some(([book]) => book === 'betmgm')).toBe(true);
    for (const [book, link, id] of links) {
      if (link === null) continue;
      expect(link).toBe(`${c.sys.url}/api/v1/deeplink/${id as string}?book=${book as string}&state=nj`);
    }
    const mgm = links.find(([book, link]) => book === 'betmgm' && link !== null) as [string, string, string];
    expect((await follow(mgm[1])).location).toMatch(/^https:\/\/sports\.nj\.betmgm\.com\//);
  });
});
