/**
 * GET /freshness and the `freshness` block of /sportsbooks: the live board's freshness ledger
 * (pipeline/freshness) as clients read it, on the conformance fixture's board.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawTick } from '../schemas/index.js';
import { startConformance } from './support/fixture.js';
import type { Conformance } from './support/fixture.js';

type Row = Record<string, unknown>;
let c: Conformance;

beforeAll(async () => {
  c = await startConformance();
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
