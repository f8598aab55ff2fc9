/**
 * GET /freshness, the `freshness` block of /sportsbooks and the freshness histograms of the
 * operator's /metrics: the live board's freshness ledger (pipeline/freshness) as clients and
 * operators read it, on the conformance fixture's board.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawTick } from '../schemas/index.js';
import { startConformance } from './support/fixture.js';
import type { Conformance } from './support/fixture.js';

type Row = Record<string, unknown>;
let c: Conformance;

beforeAll(async () => {
  c = await startConformance({ METRICS_PORT: '0' });
});
afterAll(async () => {
  await c.sys.close();
});

const pinnacle = async (): Promise<Row> => {
  const r = await c.sys.get('/api/v1/freshness?sportsbook=pinnacle', c.keys.free);
  expect(r.status).toBe(200);
  return (r.body['data'] as Row[])[0] as Row;
};
const confirmations = (book: Row, phase: string): number => ((book[phase] as Row)['confirmation_age_seconds'] as Row)['count'] as number;

describe('GET /freshness', () => {
  it('lists every book seen, live and pre-match apart, with the 15-minute window it covers', async () => {
    const r = await c.sys.get('/api/v1/freshness', c.keys.free);
    expect(r.status).toBe(200);
    const data = r.body['data'] as Row[];
    expect(data.map((b) => b['sportsbook'])).toContain('pinnacle');
    expect(Object.keys(data[0] as Row).sort()).toEqual(['live', 'prematch', 'sportsbook']);
    expect(Object.keys((data[0] as Row)['prematch'] as Row).sort()).toEqual([
      'confirmation_age_seconds',
      'feed_lag_seconds',
      'rows',
      'stale_after_seconds',
      'suspended_share',
      'updates_per_minute',
    ]);
    expect((r.body['meta'] as Row)['window']).toMatchObject({ seconds: 900, from: expect.any(String), to: expect.any(String) });
  });

  it('takes a confirmation of a price as one more confirmation age of its book', async () => {
    const tick = c.ticks.find((t) => t.book === 'pinnacle' && !t.isLive) as RawTick;
    const before = confirmations(await pinnacle(), 'prematch');
    await c.push([tick]);
    c.advance(30_000);
    await c.push([tick]);
    expect(confirmations(await pinnacle(), 'prematch')).toBe(before + 2);
  });

  it('refuses an unknown sportsbook with the error envelope naming the parameter', async () => {
    const r = await c.sys.get('/api/v1/freshness?sportsbook=pinnacle,nobook', c.keys.free);
    expect(r.status).toBe(400);
    expect(r.body['error']).toMatchObject({ code: 'invalid_request', message: expect.stringContaining("'sportsbook'") });
  });
});

describe('GET /sportsbooks', () => {
  it('carries each book’s freshness block, with its stale threshold per phase', async () => {
    const r = await c.sys.get('/api/v1/sportsbooks?catalog=true&limit=1000', c.keys.sharp);
    const book = (r.body['data'] as Row[]).find((b) => b['id'] === 'pinnacle') as Row;
    const freshness = book['freshness'] as Row;
    expect(Object.keys(freshness).sort()).toEqual(['live', 'prematch']);
    expect((freshness['prematch'] as Row)['stale_after_seconds']).toBeGreaterThanOrEqual(60);
    expect((freshness['live'] as Row)['stale_after_seconds']).toBeGreaterThanOrEqual(10);
  });
});

/** The value of one sample line of the Prometheus text, by metric name and labels (in any order); 0 when absent. */
function sampleOf(text: string, name: string, labels: Record<string, string>): number {
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)\{([^}]*)\} (\S+)$/.exec(line);
    if (m === null || m[1] !== name) continue;
    const own = new Map([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => own.get(k) === v)) return Number(m[3]);
  }
  return 0;
}

describe('GET /metrics on the operator port', () => {
  const scrape = async (): Promise<string> => {
    const res = await fetch(`${c.sys.metricsUrl ?? ''}/metrics`);
    expect(res.status).toBe(200);
    return res.text();
  };
  const labels = { book: 'pinnacle', phase: 'prematch' };
  const age = 'odds_book_confirmation_age_seconds';

  it("counts a confirmation 29 s after the last in the book's histogram, between the 20 s and 30 s buckets", async () => {
    const tick = c.ticks.find((t) => t.book === 'pinnacle' && !t.isLive) as RawTick;
    await c.push([tick]);
    const before = await scrape();
    c.advance(29_000);
    await c.push([tick]);
    const after = await scrape();
    const delta = (name: string, more: Record<string, string> = {}): number =>
      sampleOf(after, name, { ...labels, ...more }) - sampleOf(before, name, { ...labels, ...more });
    expect(delta(`${age}_count`)).toBe(1);
    expect(delta(`${age}_sum`)).toBeCloseTo(29, 2);
    expect(delta(`${age}_bucket`, { le: '20' })).toBe(0);
    expect(delta(`${age}_bucket`, { le: '30' })).toBe(1);
    expect(delta(`${age}_bucket`, { le: '+Inf' })).toBe(1);
  });

  it('holds as many confirmation ages per book and phase as GET /freshness reports for its window', async () => {
    const text = await scrape();
    expect(sampleOf(text, `${age}_count`, labels)).toBe(confirmations(await pinnacle(), 'prematch'));
    expect(sampleOf(text, `${age}_count`, labels)).toBeGreaterThan(0);
  });
});
