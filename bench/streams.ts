import { spawn } from 'node:child_process';
import { getHeapSpaceStatistics } from 'node:v8';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Session } from 'node:inspector';
import { PerformanceObserver, constants, monitorEventLoopDelay } from 'node:perf_hooks';
import { pino } from 'pino';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import { loadConfig } from '../runtime/config.js';
import { presentOdds } from '../api/contract/odds.js';
import { allOdds } from '../api/queries/index.js';
import type { OddsFilters } from '../api/queries/index.js';
import { StreamService } from '../api/stream/index.js';
import type { StreamHub } from '../api/stream/index.js';
import type { LiveBoard } from '../api/views/board.js';
import { startSystem } from '../runtime/system.js';
import { Catalog } from '../api/views/catalog.js';
import type { TierViews } from '../api/views/tier-views.js';
import { cpuProfile } from './cpu-profile.js';
import type { BenchFigure } from './report.js';

interface Sub {
  kind: 'sse' | 'ws';
  url: string;
  filter: string;
}

interface ClientResult {
  /** Subscribers that had their snapshot when the measurement started. */
  ready: number;
  frames: number;
  seconds: number;
  rows: number;
  /** Rows sent again with the timestamp the subscriber already held (not counted as latency). */
  resent: number;
  p50: number;
  p99: number;
  closedEarly: number;
  /** The subscriber process's CPU over the measured seconds, in cores. */
  cpuShare: number;
  recorded: Record<string, { sse: [number, string][]; ws: [number, string][] }> | null;
}

/**
 * Runs the subscriber process: `onReady` once every subscriber has its snapshot, then it measures;
 * `onMeasured` as its measured seconds end, before it sends the results.
 */
async function runClients(
  subs: Sub[],
  seconds: number,
  record: boolean,
  onReady: () => Promise<void> | void,
  onMeasured: () => void = () => undefined,
): Promise<ClientResult> {
  const dir = mkdtempSync(join(tmpdir(), 'odds-bench-clients-'));
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify({ subs, seconds, record }));
  const child = spawn(process.execPath, [new URL('./stream-client.js', import.meta.url).pathname, file], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  try {
    return await new Promise<ClientResult>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('stream bench clients did not finish in time')), (seconds + 150) * 1000);
      lines.on('line', (line) => {
        if (line.startsWith('ready')) {
          void Promise.resolve(onReady()).then(() => child.stdin.write('go\n'));
          return;
        }
        if (line === 'measured') {
          onMeasured();
          return;
        }
        clearTimeout(timer);
        resolve(JSON.parse(line) as ClientResult);
      });
      child.on('exit', (code) => {
        if (code !== 0) reject(new Error(`stream bench clients exited with ${code}`));
      });
    });
  } finally {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

function quantile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

/**
 * The main thread's (the event loop's) time on a CPU and time runnable but waiting for one, in
 * ms, from Linux's per-thread scheduler statistics: the process's CPU figure also counts chDB's
 * threads and V8's helpers, and a thread that waits for a core delays frames as much as one that
 * computes. NaN where /proc has no schedstat.
 */
function mainThreadSchedule(): { cpuMs: number; waitMs: number } {
  try {
    const [cpu, wait] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ').map(Number);
    return { cpuMs: (cpu ?? Number.NaN) / 1e6, waitMs: (wait ?? Number.NaN) / 1e6 };
  } catch {
    return { cpuMs: Number.NaN, waitMs: Number.NaN };
  }
}

/** Old generation and large objects in use: what a major GC has to mark (the young generation comes and goes). */
function heapInUse(): string {
  const spaces = getHeapSpaceStatistics();
  const mb = (name: string): number => Math.round((spaces.find((s) => s.space_name === name)?.space_used_size ?? 0) / 1e6);
  return `old space ${mb('old_space')} MB, large objects ${mb('large_object_space')} MB`;
}

/**
 * `BENCH_STREAM_HEAP=<file>`: a sampling heap profile of what the measured seconds allocated and a
 * major GC has to mark or sweep: objects still live at the end, or collected by a major GC (so
 * they had reached the old generation). Young garbage, which only scavenges see, is left out. This
 * is what fills the old generation between major GCs; `node dist/bench/profile-top.js <file>`
 * prints it by allocating function. Returns the stop (a no-op without a file).
 */
function heapProfile(file: string | undefined): () => void {
  if (!file) return () => undefined;
  const session = new Session();
  session.connect();
  // Not in @types/node's protocol types yet; V8 11 (Node 20) accepts it.
  const params: { samplingInterval: number; includeObjectsCollectedByMajorGC: boolean } = {
    samplingInterval: 32_768,
    includeObjectsCollectedByMajorGC: true,
  };
  session.post('HeapProfiler.startSampling', params);
  return () => {
    session.post('HeapProfiler.stopSampling', (err, r) => {
      if (!err) writeFileSync(file, JSON.stringify(r.profile));
      session.disconnect();
    });
  };
}

/**
 * Where a tick's time goes on the server while the subscribers measure: the event loop's delay
 * (how long a ready callback waited), GC pauses, CPU, and per odds change the time from the tick's
 * timestamp (feed emit) to the board applying it, to the hub's flush starting, and to the flush
 * having written it to every socket. The client's figure adds the kernel and its own parsing.
 */
function traceServer(board: LiveBoard, hub: StreamHub): () => ServerTrace {
  // `BENCH_STREAM_PROFILE=<file>`: a CPU profile of the server over the measured seconds only.
  const stopCpuProfile = cpuProfile(process.env['BENCH_STREAM_PROFILE']);
  const stopHeapProfile = heapProfile(process.env['BENCH_STREAM_HEAP']);
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const gc: number[] = [];
  let majorGcs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      gc.push(e.duration);
      const kind = (e as { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MAJOR || kind === constants.NODE_PERFORMANCE_GC_INCREMENTAL) majorGcs++;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const cpu0 = process.cpuUsage();
  const main0 = mainThreadSchedule();
  const t0 = performance.now();
  let active = true;
  const applied: number[] = [];
  const flushStart: number[] = [];
  const flushEnd: number[] = [];
  const flushMs: number[] = [];
  let pending: number[] = [];
  board.subscribe({
    applyEvent: () => undefined,
    applyChange: (c) => {
      if (!active || !c.row) return;
      // A locked row keeps its last price's time; the tick that locked it is suspendedSince.
      const at = c.row.isActive ? c.row.ts : (c.row.suspendedSince ?? c.row.ts);
      applied.push(Date.now() - at);
      pending.push(at);
    },
  });
  const flush = hub.flush.bind(hub);
  hub.flush = () => {
    const start = Date.now();
    flush();
    const end = Date.now();
    if (!active || pending.length === 0) return;
    flushMs.push(end - start);
    for (const ts of pending) {
      flushStart.push(start - ts);
      flushEnd.push(end - ts);
    }
    pending = [];
  };
  return () => {
    active = false;
    hub.flush = flush;
    void stopCpuProfile();
    stopHeapProfile();
    loop.disable();
    observer.disconnect();
    const cpu = process.cpuUsage(cpu0);
    const main1 = mainThreadSchedule();
    const wall = performance.now() - t0;
    const q = (xs: number[]): string => {
      const s = [...xs].sort((a, b) => a - b);
      return `p50 ${quantile(s, 0.5).toFixed(1)} / p99 ${quantile(s, 0.99).toFixed(1)} / max ${(s[s.length - 1] ?? 0).toFixed(1)} ms`;
    };
    const writtenP99 =
      flushEnd.length === 0
        ? null
        : quantile(
            [...flushEnd].sort((a, b) => a - b),
            0.99,
          );
    const ms = (ns: number): string => (ns / 1e6).toFixed(1);
    const share = (x: number): string => (Number.isNaN(x) ? 'n/a' : `${((x / wall) * 100).toFixed(0)} %`);
    const lines = [
      `server during the run: CPU ${(((cpu.user + cpu.system) / 1000 / wall) * 100).toFixed(0)} % of a core (main thread: on a CPU ${share(main1.cpuMs - main0.cpuMs)}, waiting for one ${share(main1.waitMs - main0.waitMs)}); event-loop delay p50 ${ms(loop.percentile(50))} / p99 ${ms(loop.percentile(99))} / max ${ms(loop.max)} ms`,
      `GC pauses: ${gc.length} (${majorGcs} of them in a major GC: marking or compacting), ${gc.reduce((a, b) => a + b, 0).toFixed(0)} ms in all, longest ${Math.max(0, ...gc).toFixed(1)} ms; heap at the end: ${heapInUse()}`,
      `tick -> board applied:   ${q(applied)} (${applied.length} changes)`,
      `tick -> hub flush start: ${q(flushStart)}`,
      `tick -> flush written:   ${q(flushEnd)}; a flush takes ${q(flushMs)} (${flushMs.length} flushes)`,
    ];
    return { lines, writtenP99 };
  };
}

/** The server-side trace's lines, and its tick -> flush written p99 (null when no change was timed). */
interface ServerTrace {
  lines: string[];
  writtenP99: number | null;
}

const ISO = /"timestamp":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"/g;

/**
 * The baseline: a bare `http` + `ws` server with no pipeline, no board and no hub, that writes the
 * frames the hub's subscribers received (recorded per filter) to the same number of sockets per
 * filter at the recorded times, each frame's timestamps set to its write time (same length, so
 * the same bytes on the wire), so the client's timestamp-to-arrival figure is the bare cost of
 * writing these frames to these sockets.
 */
async function bareServer(recorded: NonNullable<ClientResult['recorded']>): Promise<{ url: string; play(): void; close(): Promise<void> }> {
  const sse = new Map<string, ServerResponse[]>();
  const wsByFilter = new Map<string, WebSocket[]>();
  const server = createServer((req, res) => {
    const filter = new URL(req.url ?? '/', 'http://x').searchParams.get('f') ?? '';
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write('event: snapshot:complete\ndata: {}\n\n');
    const list = sse.get(filter) ?? [];
    list.push(res);
    sse.set(filter, list);
  });
  const wss = new WebSocketServer({ server, handleProtocols: (p) => (p.has('sharpapi-v1') ? 'sharpapi-v1' : false) });
  wss.on('connection', (ws, req) => {
    const filter = new URL(req.url ?? '/', 'http://x').searchParams.get('f') ?? '';
    ws.send('{"type":"snapshot:complete"}');
    const list = wsByFilter.get(filter) ?? [];
    list.push(ws);
    wsByFilter.set(filter, list);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const schedule: { at: number; filter: string; kind: 'sse' | 'ws'; text: string }[] = [];
  for (const [filter, r] of Object.entries(recorded)) {
    for (const [at, text] of r.sse) schedule.push({ at, filter, kind: 'sse', text });
    for (const [at, text] of r.ws) schedule.push({ at, filter, kind: 'ws', text });
  }
  schedule.sort((a, b) => a.at - b.at);
  return {
    url: `127.0.0.1:${port}`,
    play() {
      const t0 = Date.now();
      let i = 0;
      const tick = (): void => {
        const due = Date.now() - t0;
        for (; i < schedule.length && (schedule[i]?.at ?? Infinity) <= due; i++) {
          const f = schedule[i] as (typeof schedule)[number];
          const stamped = f.text.replace(ISO, `"timestamp":"${new Date().toISOString()}"`);
          if (f.kind === 'sse') {
            const bytes = Buffer.from(stamped);
            for (const res of sse.get(f.filter) ?? []) res.write(bytes);
          } else {
            for (const ws of wsByFilter.get(f.filter) ?? []) ws.send(stamped);
          }
        }
        if (i < schedule.length) setTimeout(tick, 1);
      };
      tick();
    },
    async close() {
      for (const list of sse.values()) for (const res of list) res.destroy();
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/**
 * The CPU cost of a subscriber's snapshot, on the board the run left (pipeline stopped): a
 * subscriber joining a subscription that already streams starts from the rows its group holds
 * (`StreamService.snapshot`, each join after a change, so nothing else is reused), against
 * the per-subscriber board walk it replaced (the `/odds` query for the filter, every row presented).
 */
function snapshotJoins(
  views: TierViews,
  filters: { book: string; league: string }[],
): { groups: number; rows: number; hubPerSecond: number; walkPerSecond: number } {
  const catalog = new Catalog();
  const board = views.live;
  const service = new StreamService({ views, catalog, now: () => Date.now(), settings: { heartbeatMs: 0 } });
  try {
    const groups = filters.map(
      (f) =>
        service.open('enterprise', {
          odds: true,
          lists: [],
          gamestate: false,
          splits: false,
          sportsbook: f.book,
          league: f.league,
          minEv: 2,
          minProfit: 0.5,
        }).group,
    );
    const rounds = 5;
    let rows = 0;
    let t0 = performance.now();
    for (let r = 0; r < rounds; r++) {
      for (const g of groups) {
        // As if a frame had reached the group since the last join: nothing shared but its rows.
        g.version++;
        g.cache.clear();
        rows += service.snapshot(g).odds?.length ?? 0;
      }
    }
    const hubMs = performance.now() - t0;
    t0 = performance.now();
    let walked = 0;
    for (let r = 0; r < rounds; r++) {
      for (const g of groups) {
        const f = g.spec.channels.get('odds') as OddsFilters;
        walked += allOdds(board, catalog, f).map((m) =>
          JSON.stringify(presentOdds(catalog, m.row, m.event, board.mainLines(m.event.id))),
        ).length;
      }
    }
    const walkMs = performance.now() - t0;
    if (walked !== rows) process.stdout.write(`  warning: the group snapshots held ${rows} rows, the board walks ${walked}\n`);
    const joins = rounds * groups.length;
    return { groups: groups.length, rows: rows / rounds, hubPerSecond: (joins / hubMs) * 1000, walkPerSecond: (joins / walkMs) * 1000 };
  } finally {
    service.close();
  }
}

/**
 * 1,000 SSE and 1,000 WebSocket subscribers of the odds channel (each on one sportsbook and one
 * league, so about 200 distinct subscriptions of ten members each) on the whole system in one
 * process, the simulator at 2,000 ticks/s: frames delivered per second, and per odds row the time
 * from the tick's timestamp to its arrival at the subscriber (p50, p99); beside the same frames
 * written to the same sockets by a bare server. It measures for 30 s (`BENCH_STREAM_SECONDS`): a
 * major GC comes every 20-40 s here, and a shorter run's p99 depends on whether one fell in it.
 */
export async function benchStreams(
  seconds = Number(process.env['BENCH_STREAM_SECONDS'] ?? 30),
  perKind = Number(process.env['BENCH_STREAM_SUBSCRIBERS'] ?? 1000),
): Promise<BenchFigure[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'odds-bench-streams-'));
  // Every subscriber connects from 127.0.0.1: the per-address connection cap must allow them all.
  // Load shedding is off here: on a loaded machine it refuses subscribers' connects (503 while the
  // event loop lags), and this section measures fan-out; the shedding section measures shedding.
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    FEED: 'simulator',
    SIM_TICKS_PER_SECOND: '2000',
    SIM_STEP_MS: process.env['BENCH_STREAM_STEP_MS'] ?? '100',
    SINK_MAX_WAIT_MS: '1000',
    MAX_CONNECTIONS_PER_ADDRESS: String(4 * perKind + 100),
    SHED_EVENT_LOOP_DELAY_MS: '0',
  });
  let streams: StreamService | null = null;
  const sys = await startSystem(config, pino({ level: 'warn' }), { onStreams: (s) => (streams = s) });
  try {
    await sys.drained(60_000);
    const keys: string[] = [];
    for (let i = 0; i < Math.ceil((2 * perKind) / 50) + 1; i++) {
      const key = `bench-stream-${i}-${Date.now()}`;
      sys.keys.add(key, 'enterprise', { requestsPerMinute: 1_000_000 });
      keys.push(key);
    }
    const books = new Set<string>();
    const leagues = new Set<string>();
    for (const e of sys.board.activeEvents()) {
      leagues.add(e.league);
      for (const b of sys.board.booksOf(e.id)) books.add(b);
    }
    const bookList = [...books].sort().slice(0, 20);
    const leagueList = [...leagues].sort().slice(0, 10);
    const filterOf = (i: number): { book: string; league: string } => ({
      book: bookList[i % bookList.length] as string,
      league: leagueList[Math.floor(i / bookList.length) % leagueList.length] as string,
    });
    const host = sys.url.replace(/^http:\/\//, '');
    const subs: Sub[] = [];
    for (let i = 0; i < perKind; i++) {
      const { book, league } = filterOf(i);
      const key = keys[Math.floor(i / 50)] as string;
      subs.push({
        kind: 'sse',
        url: `http://${host}/api/v1/stream/odds?api_key=${key}&sportsbook=${book}&league=${league}`,
        filter: `${book}|${league}`,
      });
      subs.push({
        kind: 'ws',
        url: `ws://${host}/ws?api_key=${keys[Math.floor((perKind + i) / 50)] as string}&channels=odds&sportsbook=${book}&league=${league}`,
        filter: `${book}|${league}`,
      });
    }
    process.stdout.write(
      `  board: ${sys.board.rowCount.toLocaleString('en-US')} rows; ${subs.length} subscribers over ${new Set(subs.map((s) => s.filter)).size} filters (${bookList.length} books x ${leagueList.length} leagues)\n`,
    );
    let trace: (() => ServerTrace) | null = null;
    let traced: ServerTrace = { lines: [], writtenP99: null };
    const service = streams as StreamService | null;
    const hub = await runClients(
      subs,
      seconds,
      true,
      async () => {
        // Steady state: the free tier's delayed board takes in the whole initial board 60 s after
        // it arrived, in one go; measure after that, not across it (bounded).
        const until = Date.now() + 60_000;
        while (sys.views.boardFor('free').rowCount < 0.9 * sys.board.rowCount && Date.now() < until)
          await new Promise((r) => setTimeout(r, 200));
        if (service) trace = traceServer(sys.board, service.hub);
      },
      () => {
        traced = (trace as (() => ServerTrace) | null)?.() ?? traced;
      },
    );
    for (const line of traced.lines) process.stdout.write(`  ${line}\n`);
    await sys.stop();
    const joins = snapshotJoins(
      sys.views,
      bookList.flatMap((book) => leagueList.map((league) => ({ book, league }))),
    );
    const bare = await bareServer(hub.recorded ?? {});
    const bareSubs = subs.map((s) => ({
      ...s,
      url:
        s.kind === 'sse'
          ? `http://${bare.url}/sse?f=${encodeURIComponent(s.filter)}`
          : `ws://${bare.url}/?f=${encodeURIComponent(s.filter)}`,
    }));
    const base = await runClients(bareSubs, seconds, false, () => bare.play());
    await bare.close();
    process.stdout.write(
      `  subscribers measured: ${hub.ready} of ${subs.length} (hub), ${base.ready} (bare); rows timed ${hub.rows}, rows re-sent with an unchanged timestamp (main-line flag flips, event changes; not timed) ${hub.resent}\n`,
    );
    process.stdout.write(
      `  subscriber process CPU while measuring: ${(hub.cpuShare * 100).toFixed(0)} % of a core (hub), ${(base.cpuShare * 100).toFixed(0)} % (bare)\n`,
    );
    // What the subscribers' side adds on top of the server (kernel, loopback, their own parsing), against the bare run's whole p99.
    if (traced.writtenP99 !== null)
      process.stdout.write(
        `  client p99 minus the server's tick -> flush written p99: ${(hub.p99 - traced.writtenP99).toFixed(1)} ms (bare server's client p99: ${base.p99.toFixed(1)} ms)\n`,
      );
    if (hub.closedEarly > 0) process.stdout.write(`  warning: ${hub.closedEarly} subscribers were disconnected during the run\n`);
    return [
      {
        name: `frames delivered/s (${hub.ready} subscribers)`,
        value: hub.frames / seconds,
        unit: 'frames/s',
        baseline: { name: 'bare server, same frames', value: base.frames / seconds },
      },
      { name: 'tick-to-client latency p50', value: hub.p50, unit: 'ms', baseline: { name: 'bare write-to-client p50', value: base.p50 } },
      { name: 'tick-to-client latency p99', value: hub.p99, unit: 'ms', baseline: { name: 'bare write-to-client p99', value: base.p99 } },
      {
        name: 'subscribers dropped while reading',
        value: hub.closedEarly,
        unit: 'subs',
        baseline: { name: 'bare', value: base.closedEarly },
      },
      {
        name: `snapshot for a joining subscriber (${joins.groups} filters, ${joins.rows} rows)`,
        value: joins.hubPerSecond,
        unit: 'joins/s',
        baseline: { name: 'walk the board per subscriber', value: joins.walkPerSecond },
      },
    ];
  } finally {
    await sys.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
