import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { ManualClock } from '../pipeline/clock.js';
import type { OlapStore } from '../pipeline/store/index.js';
import { buildApp } from '../api/app.js';
import { paginatedEnvelope } from '../api/contract/common.js';
import { oddsRowSchema } from '../api/contract/odds.js';
import { KeyStore } from '../api/accounts/index.js';
import { unlimitedRateLimits } from '../api/plugins/rate-limit.js';
import { Catalog } from '../api/views/catalog.js';
import { buildBoard } from './board-fixture.js';
import { cpuProfile } from './cpu-profile.js';
import { summarize } from './report.js';
import type { BenchFigure } from './report.js';

const run = promisify(execFile);
const KEY = 'bench-reads-key-0123456789';
const store = { kind: 'chdb', query: async () => [], exec: async () => undefined, close: async () => undefined } as unknown as OlapStore;

/** The two queries of the table: the default page, and a page filtered by sport, market and book. */
export const READ_QUERIES = {
  all: '/api/v1/odds?limit=100',
  filtered: '/api/v1/odds?sport=basketball,football&market=point_spread&sportsbook=pinnacle,draftkings&limit=100',
} as const;

interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Requests answered in the sample. */
  total: number;
}

/** autocannon in its own process, so load generation does not share the server's event loop. */
export async function autocannon(url: string, seconds: number, connections = 10): Promise<Load> {
  const bin = join(process.cwd(), 'node_modules', '.bin', 'autocannon');
  const { stdout } = await run(bin, ['--json', '-c', String(connections), '-d', String(seconds), '-H', `x-api-key=${KEY}`, url], {
    maxBuffer: 16 * 1024 * 1024,
  });
  const r = JSON.parse(stdout) as {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
    errors: number;
    non2xx: number;
  };
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx, total: r.requests.total };
}

/**
 * A sample with the CPU this process spent serving it per request (µs): the servers run here and
 * autocannon in its own process, so this process's CPU is the server's. Less noisy than req/s on a
 * shared machine, where another process's burst takes wall time but not this process's CPU.
 */
async function sampleWithCpu(url: string, seconds: number): Promise<Load & { cpuUs: number }> {
  const before = process.cpuUsage();
  const load = await autocannon(url, seconds);
  const used = process.cpuUsage(before);
  return { ...load, cpuUs: load.total > 0 ? (used.user + used.system) / load.total : 0 };
}

export async function readApp(events: number): Promise<{ app: FastifyInstance; rows: number; close: () => Promise<void> }> {
  const clock = new ManualClock(Date.UTC(2026, 10, 21, 18));
  const { board } = buildBoard(events, clock);
  const keys = new KeyStore();
  keys.add(KEY, 'enterprise', { requestsPerMinute: 1e12 });
  const app = await buildApp({
    board,
    catalog: new Catalog(),
    keys,
    rateLimits: unlimitedRateLimits,
    clock,
    store,
    version: 'bench',
    redisUrl: null,
  });
  return { app, rows: board.rowCount, close: () => app.close() };
}

/**
 * The bare baseline: Fastify with nothing but a route that serializes, with the same row schema,
 * the very rows our answer carries (taken from it once, held as ready objects).
 */
async function bareServer(
  pages: Record<keyof typeof READ_QUERIES, unknown[]>,
  total: number,
): Promise<{ url: string; close: () => Promise<void> }> {
  const bare = Fastify({ logger: false });
  const schema = { response: { 200: paginatedEnvelope(oddsRowSchema, { type: 'object', additionalProperties: true }) } };
  for (const [name, data] of Object.entries(pages)) {
    bare.get(`/${name}`, { schema }, async () => ({
      success: true,
      data,
      pagination: { limit: 100, offset: 0, has_more: true, next_offset: 100, count: data.length, total },
      meta: { count: data.length, total },
      updated_at: new Date().toISOString(),
    }));
  }
  const url = await bare.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: () => bare.close() };
}

/**
 * The physical limit: Node's own HTTP server answering each query with our answer's very bytes,
 * built once. Nothing is looked up, serialized or hooked per request, so what is left is the
 * socket and HTTP parsing that any server pays; issue 35 asks for at least 0.8x of it.
 */
async function bytesServer(bodies: Record<keyof typeof READ_QUERIES, Buffer>): Promise<{ url: string; close: () => Promise<void> }> {
  const byPath = new Map(Object.entries(bodies).map(([name, body]) => [`/${name}`, body]));
  const server = createServer((req, res) => {
    const body = byPath.get(req.url ?? '');
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * GET /odds on a board of `events` x 504 prices (every filter, index, presenter and hook of the
 * real app, enterprise key, no rate limit) against two baselines: bare Fastify serializing the same
 * rows, and a server sending the same bytes pre-built. Each query and its baselines are sampled in
 * rotating order `samples` times for `seconds` each: medians with min and max.
 */
export async function benchReads(events: number, samples = 3, seconds = 3): Promise<BenchFigure[]> {
  const t0 = performance.now();
  const { app, rows, close } = await readApp(events);
  const buildMs = performance.now() - t0;
  const size = events >= 1000 ? '1M' : '45k';
  const pages = { all: [] as unknown[], filtered: [] as unknown[] };
  const bodies: Record<keyof typeof READ_QUERIES, Buffer> = { all: Buffer.alloc(0), filtered: Buffer.alloc(0) };
  for (const name of ['all', 'filtered'] as const) {
    const r = await app.inject({ method: 'GET', url: READ_QUERIES[name], headers: { 'x-api-key': KEY } });
    if (r.statusCode !== 200) throw new Error(`reads bench: ${r.statusCode} ${r.body.slice(0, 200)}`);
    pages[name] = (r.json() as { data: unknown[] }).data;
    bodies[name] = r.rawPayload;
  }
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const bare = await bareServer(pages, rows);
  const bytes = await bytesServer(bodies);
  process.stdout.write(
    `  board: ${rows.toLocaleString('en-US')} live prices, ${events} events (built in ${(buildMs / 1000).toFixed(1)} s); ${samples} samples x ${seconds} s per figure, 10 connections\n`,
  );
  type Sample = Load & { cpuUs: number };
  const ours = { all: [] as Sample[], filtered: [] as Sample[] };
  const theirs = { all: [] as Sample[], filtered: [] as Sample[] };
  const prebuilt = { all: [] as Sample[], filtered: [] as Sample[] };
  // Warm all three (JIT, fragments) before the first sample.
  await autocannon(`${base}${READ_QUERIES.all}`, 1);
  await autocannon(`${base}${READ_QUERIES.filtered}`, 1);
  await autocannon(`${bare.url}/all`, 1);
  await autocannon(`${bytes.url}/all`, 1);
  for (let i = 0; i < samples; i++) {
    for (const name of ['all', 'filtered'] as const) {
      const servers: [Sample[], string][] = [
        [theirs[name], `${bare.url}/${name}`],
        [ours[name], `${base}${READ_QUERIES[name]}`],
        [prebuilt[name], `${bytes.url}/${name}`],
      ];
      // Rotate who goes first, so drift on the shared machine hits all three alike.
      for (const [into, url] of [...servers.slice(i % servers.length), ...servers.slice(0, i % servers.length)]) {
        into.push(await sampleWithCpu(url, seconds));
      }
    }
  }
  // BENCH_READS_PROFILE=<prefix>: one more sample of ours and one of the pre-built bytes (the
  // default page) under a CPU profile each, after the measured ones so they slow none of them
  // (`node dist/bench/profile-top.js <prefix>.ours.45k.cpuprofile`).
  const profilePrefix = process.env['BENCH_READS_PROFILE'];
  if (profilePrefix) {
    for (const [who, url] of [
      ['ours', `${base}${READ_QUERIES.all}`],
      ['bytes', `${bytes.url}/all`],
    ] as const) {
      const stop = cpuProfile(`${profilePrefix}.${who}.${size}.cpuprofile`);
      await autocannon(url, seconds * samples);
      await stop();
    }
  }
  await close();
  await bare.close();
  await bytes.close();
  const errors = [...ours.all, ...ours.filtered, ...theirs.all, ...theirs.filtered, ...prebuilt.all, ...prebuilt.filtered].reduce(
    (s, l) => s + l.errors,
    0,
  );
  if (errors > 0) process.stdout.write(`  warning: ${errors} failed or non-2xx responses during load\n`);

  const figure = (name: string, key: 'rps' | 'p99', q: 'all' | 'filtered', target?: BenchFigure['target']): BenchFigure => {
    const a = summarize(ours[q].map((l) => l[key]));
    const b = summarize(theirs[q].map((l) => l[key]));
    return {
      name: `${name} [${size}]`,
      value: a.median,
      spread: a.spread,
      unit: key === 'rps' ? 'req/s' : 'ms',
      baseline: { name: `bare ${key === 'rps' ? 'req/s' : 'p99'}, same rows`, value: b.median, spread: b.spread },
      ...(target ? { target } : {}),
    };
  };
  const againstBytes = (name: string, q: 'all' | 'filtered', key: 'rps' | 'cpuUs', target?: BenchFigure['target']): BenchFigure => {
    const a = summarize(ours[q].map((l) => l[key]));
    const b = summarize(prebuilt[q].map((l) => l[key]));
    return {
      name: `${name} [${size}]`,
      value: a.median,
      spread: a.spread,
      unit: key === 'rps' ? 'req/s' : 'µs/req',
      baseline: { name: 'the same bytes pre-built (node:http)', value: b.median, spread: b.spread },
      ...(target ? { target } : {}),
    };
  };
  return [
    figure('GET /odds?limit=100 req/s', 'rps', 'all', { ratio: 1.0, better: 'higher' }),
    againstBytes('GET /odds?limit=100 server CPU', 'all', 'cpuUs'),
    againstBytes('GET /odds?limit=100 req/s vs bytes', 'all', 'rps', { ratio: 0.8, better: 'higher' }),
    againstBytes('GET /odds filtered req/s vs bytes', 'filtered', 'rps'),
    figure('GET /odds?limit=100 p99', 'p99', 'all'),
    figure('GET /odds filtered req/s', 'rps', 'filtered', { ratio: 0.8, better: 'higher' }),
    figure('GET /odds filtered p99', 'p99', 'filtered', { ratio: 1.5, better: 'lower' }),
  ];
}
