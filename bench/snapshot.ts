import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { WebSocketServer } from 'ws';
import { ManualClock } from '../pipeline/clock.js';
import type { OlapStore } from '../pipeline/store/index.js';
import { buildApp } from '../api/app.js';
import { KeyStore } from '../api/accounts/index.js';
import { unlimitedRateLimits } from '../api/plugins/rate-limit.js';
import { LiveBoard } from '../api/views/board.js';
import { Catalog } from '../api/views/catalog.js';
import { TierViews } from '../api/views/tier-views.js';
import { buildBoard } from './board-fixture.js';
import type { BenchFigure } from './report.js';
import type { Result as ClientResult } from './snapshot-client.js';

const KEY = 'bench-snapshot-enterprise-key';
/** The reference's unfiltered snapshot for a Sharp key: about 59 MB of JSON. */
const REFERENCE_BYTES = 59e6;

/** Streams and /odds never touch the store here. */
const noStore: OlapStore = {
  kind: 'chdb',
  exec: async () => undefined,
  insert: async () => undefined,
  query: async () => [],
  close: async () => undefined,
};

interface Measured extends ClientResult {
  loopP99: number;
  loopMax: number;
  /** Highest heap + external memory above where it started, sampled every 20 ms. */
  peakMemory: number;
}

/**
 * Runs one subscriber in its own process while this process (the server) records its event-loop
 * delay and memory: the loop is what a progressive snapshot keeps free for everyone else.
 */
async function measure(job: { kind: 'ws' | 'sse' | 'pages'; url: string; headers?: Record<string, string> }): Promise<Measured> {
  const loop = monitorEventLoopDelay({ resolution: 1 });
  const memory = (): number => {
    const m = process.memoryUsage();
    return m.heapUsed + m.external + m.arrayBuffers;
  };
  const m0 = memory();
  let peak = m0;
  const sampler = setInterval(() => (peak = Math.max(peak, memory())), 20);
  loop.enable();
  try {
    const child = spawn(process.execPath, [new URL('./snapshot-client.js', import.meta.url).pathname, JSON.stringify(job)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += String(d)));
    const result = await new Promise<ClientResult>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill();
        reject(new Error(`snapshot bench ${job.kind} client did not finish in 60 s`));
      }, 60_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        if (code === 0) resolve(JSON.parse(out) as ClientResult);
        else reject(new Error(`snapshot bench ${job.kind} client exited with ${code}`));
      });
    });
    return { ...result, loopP99: loop.percentile(99) / 1e6, loopMax: loop.max / 1e6, peakMemory: peak - m0 };
  } finally {
    loop.disable();
    clearInterval(sampler);
  }
}

/**
 * The baseline: a bare `http` + `ws` server with no board and no hub, that writes as many
 * messages of the same sizes as the real snapshot had, all in one turn from ready buffers.
 */
async function bareServer(ws: readonly number[], sse: readonly number[], rows: number): Promise<{ url: string; close(): Promise<void> }> {
  const fill = (size: number, head: string, tail: string): Buffer =>
    Buffer.from(head + 'x'.repeat(Math.max(0, size - head.length - tail.length)) + tail);
  const wsMessages = ws.map((size, i) =>
    i === ws.length - 1
      ? fill(size, `{"type":"snapshot:complete","total_odds":${rows},"pad":"`, '"}')
      : fill(size, '{"type":"initial","data":"', '"}'),
  );
  const sseFrames = sse.map((size, i) =>
    i === sse.length - 1
      ? fill(size, `event: snapshot:complete\ndata: {"total_odds":${rows},"pad":"`, '"}\n\n')
      : fill(size, 'event: snapshot\ndata: "', '"\n\n'),
  );
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const f of sseFrames) res.write(f);
  });
  const wss = new WebSocketServer({ server, handleProtocols: (p) => (p.has('sharpapi-v1') ? 'sharpapi-v1' : false) });
  wss.on('connection', (socket) => {
    for (const m of wsMessages) socket.send(m, { binary: false });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `127.0.0.1:${port}`,
    async close() {
      for (const c of wss.clients) c.terminate();
      server.closeAllConnections();
      await new Promise<void>((r) => wss.close(() => r()));
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/**
 * The progressive snapshot at the reference's scale: one WebSocket and one SSE subscriber with no
 * filter on an enterprise key (every book), on a board whose unfiltered snapshot is at least the
 * 59 MB of a Sharp key's at the reference. Each joins a fresh server (no group, no presented row
 * reused). Time to `snapshot:complete`, bytes, and this process's event-loop delay while it is
 * sent; beside a bare server writing as many messages of the same sizes at once, and `/odds`
 * walked by cursor at limit=1000 over the same rows.
 */
export async function benchLargeSnapshot(events = Number(process.env['BENCH_SNAPSHOT_EVENTS'] ?? 100)): Promise<BenchFigure[]> {
  const clock = new ManualClock(Date.UTC(2026, 10, 23, 18));
  const board = new LiveBoard({ now: () => clock.now() });
  buildBoard(events, clock, board);
  const keys = new KeyStore();
  keys.add(KEY, 'enterprise', { requestsPerMinute: 1_000_000 });
  const serve = async (): Promise<{ host: string; close: () => Promise<void> }> => {
    const views = new TierViews(board, clock, { syncEveryMs: 0 });
    const app = await buildApp({
      board,
      views,
      catalog: new Catalog(),
      keys,
      rateLimits: unlimitedRateLimits,
      clock,
      store: noStore,
      version: 'bench',
      redisUrl: null,
      stream: { heartbeatMs: 60_000 },
    });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    return {
      host: url.replace(/^http:\/\//, ''),
      close: async () => {
        await app.close();
        views.close();
      },
    };
  };
  const headers = { 'x-api-key': KEY };

  let server = await serve();
  const ws = await measure({ kind: 'ws', url: `ws://${server.host}/api/v1/ws?channels=odds`, headers });
  await server.close();
  server = await serve();
  const sse = await measure({ kind: 'sse', url: `http://${server.host}/api/v1/stream/odds`, headers });
  const pages = await measure({ kind: 'pages', url: `http://${server.host}/api/v1/odds?limit=1000`, headers });
  await server.close();
  const bare = await bareServer(ws.sizes, sse.sizes, ws.rows);
  const bareWs = await measure({ kind: 'ws', url: `ws://${bare.url}/` });
  const bareSse = await measure({ kind: 'sse', url: `http://${bare.url}/` });
  await bare.close();

  const mb = (b: number): string => (b / 1e6).toFixed(1);
  process.stdout.write(
    `  board: ${board.rowCount.toLocaleString('en-US')} prices (${events} events x 504); the reference's Sharp snapshot: ~${mb(REFERENCE_BYTES)} MB\n`,
  );
  for (const [name, r] of [
    ['WebSocket', ws],
    ['SSE', sse],
    ['/odds pages', pages],
    ['bare WebSocket', bareWs],
    ['bare SSE', bareSse],
  ] as const) {
    process.stdout.write(
      `  ${name.padEnd(14)} ${r.rows.toLocaleString('en-US')} rows, ${mb(r.bytes)} MB in ${r.messages} messages, ${(r.ms / 1000).toFixed(2)} s (first message ${r.connectedMs.toFixed(0)} ms); server loop delay p99 ${r.loopP99.toFixed(1)} / max ${r.loopMax.toFixed(1)} ms; server memory peak +${mb(r.peakMemory)} MB${r.closedEarly ? `; CLOSED EARLY: ${r.closedEarly}` : ''}\n`,
    );
  }
  if (ws.bytes < REFERENCE_BYTES || sse.bytes < REFERENCE_BYTES)
    process.stdout.write(
      `  warning: the snapshot is smaller than the reference's ${mb(REFERENCE_BYTES)} MB: raise BENCH_SNAPSHOT_EVENTS\n`,
    );
  const pagesBase = { name: '/odds?limit=1000 walked by cursor, same rows', value: pages.ms };
  return [
    {
      name: `WebSocket snapshot, ${mb(ws.bytes)} MB: to snapshot:complete`,
      value: ws.ms,
      unit: 'ms',
      baseline: { name: 'bare server, same message sizes', value: bareWs.ms },
    },
    { name: '  the same, beside the REST walk', value: ws.ms, unit: 'ms', baseline: pagesBase },
    {
      name: '  server event-loop delay max while sent',
      value: ws.loopMax,
      unit: 'ms',
      baseline: { name: 'bare server', value: bareWs.loopMax },
    },
    {
      name: '  server event-loop delay p99 while sent',
      value: ws.loopP99,
      unit: 'ms',
      baseline: { name: 'bare server', value: bareWs.loopP99 },
    },
    {
      name: `SSE snapshot, ${mb(sse.bytes)} MB: to snapshot:complete`,
      value: sse.ms,
      unit: 'ms',
      baseline: { name: 'bare server, same frame sizes', value: bareSse.ms },
    },
    { name: '  the same, beside the REST walk', value: sse.ms, unit: 'ms', baseline: pagesBase },
    {
      name: '  server event-loop delay max while sent',
      value: sse.loopMax,
      unit: 'ms',
      baseline: { name: 'bare server', value: bareSse.loopMax },
    },
    {
      name: '  server event-loop delay p99 while sent',
      value: sse.loopP99,
      unit: 'ms',
      baseline: { name: 'bare server', value: bareSse.loopP99 },
    },
    {
      name: 'subscribers dropped before snapshot:complete',
      value: (ws.closedEarly ? 1 : 0) + (sse.closedEarly ? 1 : 0),
      unit: 'subs',
      baseline: { name: 'bare', value: (bareWs.closedEarly ? 1 : 0) + (bareSse.closedEarly ? 1 : 0) },
    },
  ];
}
