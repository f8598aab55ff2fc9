import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { LEAGUES, SPORTSBOOKS, TEAMS, oddsRowKey } from '../schemas/index.js';
import type { CanonicalEvent, OddsRow } from '../schemas/index.js';
import { ManualClock } from '../pipeline/clock.js';
import type { OlapStore } from '../pipeline/store/index.js';
import { buildApp } from '../api/app.js';
import { KeyStore } from '../api/accounts/index.js';
import { MemoryRateLimitStore, unlimitedRateLimits } from '../api/plugins/rate-limit.js';
import { RedisRateLimitStore } from '../api/plugins/redis-rate-limit.js';
import { LiveBoard } from '../api/views/board.js';
import { Catalog } from '../api/views/catalog.js';
import { summarize } from './report.js';
import type { BenchFigure, Spread } from './report.js';
import { buildBoard, repriced } from './board-fixture.js';

const KEY = 'bench-delta-key-0123456789';
const EVENTS = 1000;
const BOOKS = SPORTSBOOKS.slice(0, 20).map((b) => b.id);
const SELECTIONS = [
  ['moneyline', 'home', null],
  ['moneyline', 'away', null],
  ['point_spread', 'home', -3.5],
  ['point_spread', 'away', 3.5],
  ['total_points', 'over', 220.5],
] as const;

/** The benchmark measures serving, not the limiter (except where it measures the limiter). */
const unlimited = unlimitedRateLimits;
const store = { kind: 'chdb', query: async () => [], exec: async () => undefined, close: async () => undefined } as unknown as OlapStore;

/** 1000 NBA-like events x 20 books x 5 selections: a 100k-row board. */
export function board(clock: ManualClock): { board: LiveBoard; rows: OddsRow[] } {
  const b = new LiveBoard({ now: () => clock.now(), log: { maxChanges: 1_000_000, maxAgeMs: 3_600_000 } });
  const teams = TEAMS.filter((t) => t.leagues.includes('nba'));
  const league = LEAGUES.find((l) => l.id === 'nba');
  const rows: OddsRow[] = [];
  for (let i = 0; i < EVENTS; i++) {
    const home = teams[i % teams.length];
    const away = teams[(i + 7) % teams.length];
    if (!home || !away || !league) throw new Error('catalog changed');
    const e: CanonicalEvent = {
      id: `nba-bench-${i}`,
      sport: 'basketball',
      league: 'nba',
      homeTeamId: home.id,
      awayTeamId: away.id,
      startTime: clock.now() + 3600_000 + i * 60_000,
      status: 'upcoming',
      isLive: false,
      externalIds: {},
      updatedAt: clock.now(),
    };
    b.applyEvent(e);
    for (const book of BOOKS) {
      for (const [market, selection, line] of SELECTIONS) {
        const row: OddsRow = {
          id: `r${rows.length}`,
          eventId: e.id,
          book,
          market,
          selection,
          line,
          participant: null,
          statCategory: null,
          priceAmerican: -110,
          priceDecimal: 1.9091,
          probability: 0.52381,
          ts: clock.now(),
          oddsChangedAt: clock.now(),
          observedAt: clock.now(),
          isLive: false,
          bookEventId: `${book}-${i}`,
          selectionId: null,
          isActive: true,
          suspendedSince: null,
        };
        rows.push(row);
      }
    }
  }
  for (const r of rows) b.applyChange({ key: oddsRowKey(r), eventId: r.eventId, row: r, changedAt: clock.now() });
  return { board: b, rows };
}

function reprice(b: LiveBoard, clock: ManualClock, rows: readonly OddsRow[], from: number, to: number): void {
  clock.advance(1000);
  for (let i = from; i < to; i++) {
    const r = rows[i];
    if (!r) continue;
    const moved = { ...r, priceAmerican: r.priceAmerican - 5, ts: clock.now() };
    b.applyChange({ key: oddsRowKey(moved), eventId: moved.eventId, row: moved, changedAt: clock.now() });
  }
}

async function get(app: FastifyInstance, url: string): Promise<Record<string, unknown>> {
  const r = await app.inject({ method: 'GET', url, headers: { 'x-api-key': KEY } });
  if (r.statusCode !== 200) throw new Error(`${url}: ${r.statusCode} ${r.body.slice(0, 200)}`);
  return r.json();
}

/**
 * What a client needs to walk on: the page size and the next `since` or cursor. Read from the
 * answer's tail (pagination and meta follow `data`), so the bench times the server, not a
 * client parsing megabytes of JSON.
 */
async function walkStep(
  app: FastifyInstance,
  url: string,
): Promise<{ count: number; hasMore: boolean; nextSince: string | null; nextCursor: string | null }> {
  const r = await app.inject({ method: 'GET', url, headers: { 'x-api-key': KEY } });
  if (r.statusCode !== 200) throw new Error(`${url}: ${r.statusCode} ${r.body.slice(0, 200)}`);
  const body = r.body;
  // The envelope's meta comes last and holds the count, next_since and pagination of both routes.
  const tail = body.slice(body.lastIndexOf('"meta":'));
  const field = (name: string): string | null => new RegExp(`"${name}":"([^"]*)"`).exec(tail)?.[1] ?? null;
  const count = /"count":(\d+)/.exec(tail)?.[1];
  if (count === undefined) throw new Error(`${url}: no count in the answer's meta`);
  return {
    count: Number(count),
    hasMore: tail.includes('"has_more":true'),
    nextSince: field('next_since'),
    nextCursor: field('next_cursor'),
  };
}

/** Every page of a delta from `since`, following next_since: what a polling client pays. */
async function catchUp(app: FastifyInstance, since: string): Promise<number> {
  let next = since;
  let rows = 0;
  for (;;) {
    const page = await walkStep(app, `/api/v1/odds/delta?limit=5000&since=${encodeURIComponent(next)}`);
    rows += page.count;
    if (!page.hasMore) return rows;
    // A page that says "more" without moving next_since would loop forever.
    if (page.nextSince === null || page.nextSince === next) throw new Error(`delta bench: next_since did not move past ${next}`);
    next = page.nextSince;
  }
}

/** The whole board through /odds with the cursor: what a client without deltas pays each time. */
async function reload(app: FastifyInstance): Promise<number> {
  let cursor: string | null = null;
  let rows = 0;
  do {
    const page = await walkStep(app, `/api/v1/odds?limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    rows += page.count;
    cursor = page.nextCursor;
  } while (cursor !== null);
  return rows;
}

async function sampled(runs: number, f: () => Promise<unknown>): Promise<{ median: number; spread: Spread }> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await f();
    times.push(performance.now() - t0);
  }
  return summarize(times);
}

/** Median µs of one cheap authenticated request through each app, interleaved in rotating order so drift hits all alike. */
export async function perRequest(apps: FastifyInstance[], n: number, key = KEY): Promise<number[]> {
  const times = apps.map(() => [] as number[]);
  const order = apps.map((_, j) => j);
  for (let i = 0; i < n; i++) {
    // Rotate who goes first, so warm caches and GC pauses do not favour one app.
    order.push(order.shift() ?? 0);
    for (const j of order) {
      const app = apps[j] as FastifyInstance;
      const t0 = performance.now();
      const r = await app.inject({ method: 'GET', url: '/api/v1/leagues?limit=1', headers: { 'x-api-key': key } });
      times[j]?.push((performance.now() - t0) * 1000);
      if (r.statusCode !== 200) throw new Error(`rate-limit bench: ${r.statusCode}`);
    }
  }
  return times.map((t) => t.sort((a, b) => a - b)[Math.floor(t.length / 2)] ?? 0);
}

async function redisServer(): Promise<{ url: string; stop: () => void } | null> {
  const path = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).stdout.trim();
  if (!path) return null;
  const port = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
  const child = spawn(path, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

/**
 * /odds/delta polling cost with 1k and 100k changed rows since `since` (a full catch-up,
 * following next_since, limit 5000), each beside a full /odds reload of the same 100k-row
 * board; and the rate limiter's cost per request (in-process, and Redis when redis-server is
 * installed) beside the same request with no limiter. Medians; in-process `inject()`, so the
 * figures are the server's work without the network. About 20-30 s.
 */
export async function benchDelta(): Promise<BenchFigure[]> {
  const clock = new ManualClock(Date.UTC(2026, 10, 21, 18));
  const { board: live, rows } = board(clock);
  const keys = new KeyStore();
  keys.add(KEY, 'enterprise', { requestsPerMinute: 1e12 });
  const deps = { board: live, catalog: new Catalog(), keys, clock, store, version: 'bench', redisUrl: null };
  const app = await buildApp({ ...deps, rateLimits: unlimited });
  const since = ((await get(app, '/api/v1/odds?limit=1'))['meta'] as { next_since: string }).next_since;

  const reloadMs = await sampled(3, () => reload(app));
  reprice(live, clock, rows, 0, 1000);
  if ((await catchUp(app, since)) !== 1000) throw new Error('delta bench: expected 1000 changed rows');
  const delta1k = await sampled(15, () => catchUp(app, since));
  reprice(live, clock, rows, 1000, 100_000);
  if ((await catchUp(app, since)) !== 100_000) throw new Error('delta bench: expected 100000 changed rows');
  const delta100k = await sampled(3, () => catchUp(app, since));
  // 100k changes again, ten to each of 10k rows: the window compacts them to one entry a row.
  const since2 = ((await get(app, '/api/v1/odds?limit=1'))['meta'] as { next_since: string }).next_since;
  for (let round = 0; round < 10; round++) reprice(live, clock, rows, 0, 10_000);
  if ((await catchUp(app, since2)) !== 10_000) throw new Error('delta bench: expected 10000 changed rows');
  const compacted = await sampled(5, () => catchUp(app, since2));
  const baseline = {
    name: `full /odds reload (${rows.length.toLocaleString('en-US')} rows, cursor)`,
    value: reloadMs.median,
    spread: reloadMs.spread,
  };

  const memory = await buildApp({ ...deps, rateLimits: new MemoryRateLimitStore() });
  const apps = [app, memory];
  const redis = await redisServer();
  let redisStore: RedisRateLimitStore | null = null;
  if (redis) {
    redisStore = new RedisRateLimitStore({ url: redis.url, logger: pino({ level: 'silent' }), prefix: 'bench:' });
    if (await redisStore.ready(3000)) apps.push(await buildApp({ ...deps, rateLimits: redisStore }));
  }
  await perRequest(apps, 300); // warm-up
  const [none, inProcess, viaRedis] = await perRequest(apps, 4000);
  for (const a of apps) await a.close();
  await redisStore?.close();
  redis?.stop();
  if (!redis) process.stdout.write('  (redis-server not installed: Redis rate-limit figure skipped)\n');

  const noLimiter = { name: 'same request, no limiter', value: none ?? 0 };
  return [
    { name: 'GET /odds/delta catch-up, 1k changed rows', value: delta1k.median, spread: delta1k.spread, unit: 'ms', baseline },
    { name: 'GET /odds/delta catch-up, 100k changed rows', value: delta100k.median, spread: delta100k.spread, unit: 'ms', baseline },
    {
      name: 'delta catch-up, 100k changes to 10k rows',
      value: compacted.median,
      spread: compacted.spread,
      unit: 'ms',
      baseline,
      target: { ratio: 0.3, better: 'lower' },
    },
    { name: 'rate limit, in-process counters, per request', value: inProcess ?? 0, unit: 'µs', baseline: noLimiter },
    ...(viaRedis === undefined
      ? []
      : [{ name: 'rate limit, Redis counters, per request', value: viaRedis, unit: 'µs', baseline: noLimiter }]),
  ];
}

/**
 * /odds/delta on the million-price board: a catch-up of 100k changed prices (each a different
 * row) against a full reload of the board through /odds with the cursor, pages of 1000. Medians
 * of in-process `inject()` walks (the server's work, without the network); the client reads only
 * the page's tail to walk on.
 */
export async function benchDeltaMillion(events = 2000): Promise<BenchFigure[]> {
  const clock = new ManualClock(Date.UTC(2026, 10, 21, 18));
  // The default window (500k changes) holds the 100k changes measured.
  const live = new LiveBoard({ now: () => clock.now() });
  const { rows } = buildBoard(events, clock, live);
  const keys = new KeyStore();
  keys.add(KEY, 'enterprise', { requestsPerMinute: 1e12 });
  const app = await buildApp({
    board: live,
    catalog: new Catalog(),
    keys,
    clock,
    store,
    version: 'bench',
    redisUrl: null,
    rateLimits: unlimited,
  });
  const since = ((await get(app, '/api/v1/odds?limit=1'))['meta'] as { next_since: string }).next_since;
  const full = await sampled(2, () => reload(app));
  clock.advance(1000);
  // Every tenth row of the board: 100,800 changed prices across every event.
  let changed = 0;
  for (let i = 0; i < rows.length; i += 10) {
    const moved = repriced(rows[i] as OddsRow, clock.now());
    live.applyChange({ key: oddsRowKey(moved), eventId: moved.eventId, row: moved, changedAt: clock.now() });
    changed++;
  }
  if ((await catchUp(app, since)) !== changed) throw new Error(`delta bench: expected ${changed} changed rows`);
  const delta = await sampled(3, () => catchUp(app, since));
  await app.close();
  return [
    {
      name: `delta catch-up, ${changed.toLocaleString('en-US')} changed rows [1M]`,
      value: delta.median,
      spread: delta.spread,
      unit: 'ms',
      baseline: {
        name: `full /odds reload (${rows.length.toLocaleString('en-US')} rows, cursor)`,
        value: full.median,
        spread: full.spread,
      },
      target: { ratio: 0.3, better: 'lower' },
    },
  ];
}
