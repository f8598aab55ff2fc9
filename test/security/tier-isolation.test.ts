/**
 * A free key must not read what a higher tier pays for: opportunities, game state, closing
 * lines and history are 403 `feature_required`, and every answer it does get carries only the
 * free tier's sportsbooks. The routes come from the app's own OpenAPI document, so a route added
 * later is attacked too without editing this file.
 */
import { describe, expect, it } from 'vitest';
import { SPORTSBOOKS, openBooks } from '../../schemas/index.js';
import { SSE_CHANNELS } from '../../api/stream/sse.js';
import { conformanceForFile, fixtureEventId } from '../support/fixture.js';
import type { Conformance } from '../support/fixture.js';

type Row = Record<string, unknown>;
interface Operation {
  parameters?: { name: string; in: string; required?: boolean; schema?: { enum?: unknown[] } }[];
  security?: unknown[];
}

const FREE = openBooks('free', SPORTSBOOKS);
const PAID = new Set(SPORTSBOOKS.map((b) => b.id).filter((b) => !FREE.has(b)));
/**
 * The catalogue lists every book by design; it carries no prices. /freshness is the catalogue's
 * per-book freshness block (also on /sportsbooks) on its own: how often each book confirms, no price.
 */
const CATALOGUE = /^\/api\/v1\/(sports|leagues|sportsbooks|markets|teams|freshness)(\/|$)/;
/** Not read routes of a tier: sign-in, the key's own account, the tool server (its own suite), public redirects. */
const NOT_TIERED = /^\/api\/v1\/(session|account|mcp|deeplink\/|openapi|docs|health)/;

let c: Conformance;
let operations: [string, Operation][] = [];
let values: Map<string, string>;
conformanceForFile(async (running) => {
  c = running;
  const doc = (await c.sys.get('/api/v1/openapi.json')).body as { paths: Record<string, Record<string, Operation>> };
  operations = Object.entries(doc.paths).flatMap(([path, ops]) => (ops['get'] ? [[path, ops['get']] as [string, Operation]] : []));
  const nba = await fixtureEventId(c, 'nba');
  // Values for the parameters a route requires: the fixture's own ids, so the enterprise key gets data.
  values = new Map(
    Object.entries({
      eventId: nba,
      event: nba,
      event_id: nba,
      id: nba,
      sportId: 'basketball',
      sport: 'basketball',
      leagueId: 'nba',
      league: 'nba',
      bookId: 'pinnacle',
      since: String(Date.now() - 60_000),
      date: new Date().toISOString().slice(0, 10),
      channel: 'odds',
    }),
  );
});

/** The URL of a GET operation with its required parameters filled. */
function urlOf(path: string, op: Operation): string {
  const params = op.parameters ?? [];
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values.get(name) ?? 'x'));
  const query = params
    .filter((p) => p.in === 'query' && p.required)
    .map((p) => `${p.name}=${encodeURIComponent(values.get(p.name) ?? 'x')}`);
  return query.length > 0 ? `${filled}?${query.join('&')}` : filled;
}

/** Every paid book named anywhere in a body: as a value or as a key (external_ids, deep_links). */
function paidBooksIn(value: unknown, found = new Set<string>()): Set<string> {
  if (typeof value === 'string' && PAID.has(value)) found.add(value);
  else if (Array.isArray(value)) for (const v of value) paidBooksIn(v, found);
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (PAID.has(k)) found.add(k);
      paidBooksIn(v, found);
    }
  }
  return found;
}

const isStream = (path: string): boolean => path.startsWith('/api/v1/stream');

describe('every tiered REST read, enumerated from the OpenAPI document', () => {
  it('finds the routes (the document is the source, not a list in this file)', () => {
    const tiered = operations.filter(([p]) => !NOT_TIERED.test(p) && !CATALOGUE.test(p) && !isStream(p)).map(([p]) => p);
    expect(tiered).toEqual(
      expect.arrayContaining([
        '/api/v1/odds',
        '/api/v1/opportunities/ev',
        '/api/v1/gamestate',
        '/api/v1/odds/closing',
        '/api/v1/historical/clv',
      ]),
    );
  });

  it('answers a free key 403 feature_required naming a higher tier, or only free books with the free delay', async () => {
    const seen = { refused: 0, filtered: 0, paidShownToEnterprise: 0 };
    for (const [path, op] of operations) {
      if (NOT_TIERED.test(path) || CATALOGUE.test(path) || isStream(path)) continue;
      const url = urlOf(path, op);
      const free = await c.sys.get(url, c.keys.free);
      const enterprise = await c.sys.get(url, c.keys.enterprise);
      if (paidBooksIn(enterprise.body).size > 0) seen.paidShownToEnterprise++;
      if (free.status === 403) {
        const error = free.body['error'] as Row;
        expect([url, error['code'], error['required_tier'] === 'free']).toEqual([url, 'feature_required', false]);
        seen.refused++;
        continue;
      }
      // Whatever else a free key gets, a paid key gets too: the tier never turns a refusal into data.
      expect([url, free.status]).toEqual([url, enterprise.status]);
      expect([url, [...paidBooksIn(free.body)]]).toEqual([url, []]);
      if (free.status === 200 && free.headers.get('x-data-delay') !== null)
        expect([url, free.headers.get('x-data-delay')]).toEqual([url, '60']);
      if (free.status === 200) seen.filtered++;
    }
    // The fixture has something to leak, and both defences were exercised.
    expect(seen.refused).toBeGreaterThanOrEqual(8);
    expect(seen.filtered).toBeGreaterThanOrEqual(8);
    expect(seen.paidShownToEnterprise).toBeGreaterThanOrEqual(5);
  });

  it('refuses a free key that asks for a paid book by name', async () => {
    for (const url of [
      '/api/v1/odds?sportsbook=pinnacle',
      '/api/v1/odds/best?sportsbook=pinnacle',
      '/api/v1/events?sportsbook=pinnacle',
      '/api/v1/odds?add_sportsbook=pinnacle',
    ]) {
      const r = await c.sys.get(url, c.keys.free);
      expect([url, r.status, (r.body['error'] as Row)['code']]).toEqual([url, 403, 'feature_required']);
    }
  });
});

describe('every stream channel, enumerated from the OpenAPI document', () => {
  /** The SSE head and first frames of a free key's stream (bounded: 3 s, then aborted). */
  async function open(url: string): Promise<{ status: number; text: string }> {
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(), 3000);
    try {
      // A key of its own per stream: a free key holds one stream at a time.
      const res = await fetch(`${c.sys.url}${url}`, { headers: { 'x-api-key': c.newKey('free', 100_000) }, signal: ac.signal });
      if (res.status !== 200) return { status: res.status, text: await res.text() };
      const reader = res.body?.getReader();
      let text = '';
      while (reader && !text.includes('snapshot:complete') && !text.includes('event: error')) {
        const chunk = await reader.read().catch(() => ({ done: true, value: undefined }));
        if (chunk.done) break;
        text += new TextDecoder().decode(chunk.value);
      }
      return { status: 200, text };
    } finally {
      clearTimeout(timer);
      ac.abort();
    }
  }

  it('gives a free key 403 on paid channels and only free books on the others', async () => {
    const streams = operations.filter(([p]) => isStream(p)).map(([p, op]) => urlOf(p, op));
    expect(streams).toEqual(expect.arrayContaining(['/api/v1/stream/odds', '/api/v1/stream/opportunities', '/api/v1/stream/gamestate']));
    const refused: string[] = [];
    for (const path of [...SSE_CHANNELS.map((ch) => `/api/v1/stream?channel=${ch}`), ...streams]) {
      const r = await open(path);
      if (r.status === 403) {
        expect([path, (JSON.parse(r.text) as { error: Row }).error['code']]).toEqual([path, 'feature_required']);
        refused.push(path);
        continue;
      }
      expect([path, r.status]).toEqual([path, 200]);
      const data = r.text
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => JSON.parse(l.slice(6)) as unknown);
      expect(data.length).toBeGreaterThan(0);
      expect([path, [...paidBooksIn(data)]]).toEqual([path, []]);
    }
    expect(refused).toEqual(
      expect.arrayContaining([
        '/api/v1/stream?channel=opportunities',
        '/api/v1/stream?channel=gamestate',
        '/api/v1/stream/opportunities',
        '/api/v1/stream/gamestate',
      ]),
    );
  });
});
