/**
 * `make soak`: the one-process runtime under steady load for an hour (docs/soak.md). It forks the
 * server (bench/soak-server.ts: `make run`'s runtime, embedded bus and chDB, a temporary
 * DATA_DIR, the simulator at 2,000 ticks/s), the stream subscribers (bench/soak-clients.ts:
 * SSE and WebSocket, steady, slow and reconnecting), a paced REST load (bench/load-worker.ts)
 * and a paced MCP load (bench/mcp-client.ts, run again and again). Every 10 s it reads the
 * server's /metrics on the operator port and its /proc descriptors. At the end it stops the feed,
 * compares every subscriber's mirror with /odds, writes a CSV and an SVG chart, and exits 1 when
 * heap or RSS grew, descriptors grew, or a subscriber fell out of step.
 *
 * Environment: SOAK_MINUTES (default 60, fractional allowed) or SOAK_SECONDS; SOAK_SUBSCRIBERS
 * (500); SOAK_TICKS_PER_SECOND (2000); SOAK_RETENTION_MINUTES (2: the server's windows by age);
 * SOAK_WARMUP_SECONDS (default: until the longest window by age is full, at least 60 s); SOAK_OUT
 * (default docs/soak). Heap and RSS are judged only after the maps over the board's keys have
 * settled (`keyTablesSettledAt`, about 22 minutes in at the defaults); a run under 30 minutes
 * reports memory without judging it.
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WorkerResult } from './load-worker.js';
import type { ClientsInput, ClientsMessage, ClientsReport, SoakSub } from './soak-clients.js';
import { soakChart } from './soak-chart.js';
import { soakCsv } from './soak-csv.js';
import { getJson } from './soak-http.js';
import type { ServerHeap, ServerReady, ServerRequest } from './soak-server.js';
import { MEMORY_VERDICT_REQUIRED_SECONDS, judgeSoak, keyTablesSettledAt, memoryWarmupOf } from './soak-trend.js';
import { TIERS } from '../schemas/tiers.js';
import { FUTURES_VERSIONS_MS } from '../api/views/index.js';
import type { SoakSample } from './soak-trend.js';

const env = process.env;
const seconds = Number(env['SOAK_SECONDS'] ?? Number(env['SOAK_MINUTES'] ?? 60) * 60);
const subscriberCount = Number(env['SOAK_SUBSCRIBERS'] ?? 500);
const ticksPerSecond = Number(env['SOAK_TICKS_PER_SECOND'] ?? 2000);
/**
 * The server keeps several windows by age, and memory grows by design until each is full: the
 * delta change window (its count bound is far off: compaction keeps it near the rows changed),
 * the bus's removals, the streams' replay windows, the futures versions, the free tier's delay.
 * At their defaults the longest is an hour (the bus), which no short run could wait out, so the
 * soak runs them at `SOAK_RETENTION_MINUTES` (real settings, docs/soak.md) and judges only after
 * the longest window in force is full.
 */
const retentionMinutes = Number(env['SOAK_RETENTION_MINUTES'] ?? 2);
const retentionSettings = {
  DELTA_WINDOW_MINUTES: String(retentionMinutes),
  BUS_LOG_RETENTION_MINUTES: String(retentionMinutes),
  STREAM_REPLAY_SECONDS: String(retentionMinutes * 60),
  // The splits board keeps a key's last two rounds from the second round on: a step in memory
  // one interval after the first round, which at the default 300 s fell inside the judged part.
  SPLITS_INTERVAL_SECONDS: String(retentionMinutes * 60),
};
const windowsByAge: readonly (readonly [string, number])[] = [
  ['delta window (DELTA_WINDOW_MINUTES)', retentionMinutes * 60],
  ['bus removals (BUS_LOG_RETENTION_MINUTES)', retentionMinutes * 60],
  ['replay windows (STREAM_REPLAY_SECONDS)', retentionMinutes * 60],
  ['futures versions', FUTURES_VERSIONS_MS / 1000],
  ['free tier delay', Math.max(...Object.values(TIERS).map((t) => t.dataDelaySeconds))],
  ['splits rounds (SPLITS_INTERVAL_SECONDS)', retentionMinutes * 60],
];
const longestWindowSeconds = Math.max(...windowsByAge.map(([, s]) => s));
/** After the longest window is full, time for the pipeline's own pace to show (a window fills as the views apply changes). */
const WINDOW_MARGIN_SECONDS = 30;
const warmupSeconds = Number(env['SOAK_WARMUP_SECONDS'] ?? Math.max(60, longestWindowSeconds + WINDOW_MARGIN_SECONDS));
const outDir = env['SOAK_OUT'] ?? 'docs/soak';
const SAMPLE_MS = 10_000;
/** A full collection is asked for at every sixth reading (once a minute): each is a stop-the-world pause of the server. */
const FORCED_GC_EVERY_READINGS = 6;
/** Subscribers per key: each key is its own account, and enterprise allows 50 streams per account. */
const SUBS_PER_KEY = 25;
/**
 * How fast the fitted line of open descriptors may rise, per hour, beyond its noise band: the
 * old end-to-start tolerance (the larger of 20 and a twentieth of the subscribers) spread over an
 * hour. A leak of one descriptor per reconnect would rise about 7 per subscriber an hour (a tenth
 * of them reconnect, each every 51 s on average): 3,500 an hour with 500 subscribers, 140 times
 * this; one per MCP client run (about two a minute) 120 an hour, which an hour's run catches.
 */
const maxFdGrowthPerHour = Math.max(20, Math.ceil(subscriberCount / 20));

for (const [name, value] of [
  ['SOAK_SECONDS/SOAK_MINUTES', seconds],
  ['SOAK_SUBSCRIBERS', subscriberCount],
  ['SOAK_TICKS_PER_SECOND', ticksPerSecond],
  ['SOAK_WARMUP_SECONDS', warmupSeconds],
  ['SOAK_RETENTION_MINUTES', retentionMinutes],
] as const) {
  if (!Number.isFinite(value) || value <= 0) {
    process.stderr.write(`soak: ${name} must be a positive number\n`);
    process.exit(2);
  }
}
if (!Number.isInteger(retentionMinutes)) {
  process.stderr.write('soak: SOAK_RETENTION_MINUTES must be a whole number of minutes\n');
  process.exit(2);
}

/** A sibling script, compiled (`dist/bench/*.js`) or run from source by tsx (`bench/*.ts`). */
const sibling = (name: string): string => fileURLToPath(new URL(`./${name}${extname(import.meta.url)}`, import.meta.url));

const log = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

/** The child's next message of `type` (null: its next message of any kind). */
function nextMessage<T>(child: ChildProcess, type: string | null, timeoutMs: number): Promise<T> {
  const script = child.spawnargs.find((a) => /bench\/[\w-]+\.[jt]s$/.test(a)) ?? 'a child';
  const what = `${type ?? 'message'} from ${script}`;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${what} in ${timeoutMs / 1000} s`)), timeoutMs);
    const onMessage = (m: { type?: string }): void => {
      if (type !== null && m.type !== type) return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve(m as T);
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`exited with ${String(code)} while waiting for ${what}`)));
  });
}

/** The Prometheus text's value of `name` (its first sample, with or without labels). */
function metric(text: string, name: string): number {
  const m = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)`, 'm').exec(text);
  return m ? Number(m[1]) : Number.NaN;
}

/** The sum of every sample of `name` (a gauge with labels). */
function metricSum(text: string, name: string): number {
  return [...text.matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)`, 'gm'))].reduce((sum, m) => sum + Number(m[1]), 0);
}

function subscriptions(base: string, keys: readonly string[], books: readonly string[], leagues: readonly string[]): SoakSub[] {
  const host = base.replace(/^http:\/\//, '');
  return Array.from({ length: subscriberCount }, (_, i) => {
    const book = books[i % books.length] as string;
    const league = leagues[Math.floor(i / books.length) % leagues.length] as string;
    const key = keys[Math.floor(i / SUBS_PER_KEY)] as string;
    const query = `sportsbook=${encodeURIComponent(book)}&league=${encodeURIComponent(league)}`;
    // One in ten slow, one in ten reconnecting; SSE and WebSocket alternate.
    const behaviour = i % 10 === 3 ? 'slow' : i % 10 === 7 ? 'reconnecting' : 'steady';
    return i % 2 === 0
      ? { kind: 'sse', url: `${base}/api/v1/stream/odds?api_key=${key}&${query}`, query, key, behaviour }
      : { kind: 'ws', url: `ws://${host}/ws?api_key=${key}&channels=odds&${query}`, query, key, behaviour };
  });
}

/** The books and leagues on the board, for the subscribers' filters (as the stream bench picks them). */
async function filterValues(base: string, key: string): Promise<{ books: string[]; leagues: string[] }> {
  const read = async (): Promise<{ books: string[]; leagues: string[] }> => {
    const rows = (await getJson(`${base}/api/v1/odds?limit=1000`, key))['data'] as { sportsbook: string; league: string }[];
    return {
      books: [...new Set(rows.map((r) => r.sportsbook))].sort().slice(0, 20),
      leagues: [...new Set(rows.map((r) => r.league))].sort().slice(0, 10),
    };
  };
  // The board fills over the first seconds: the filters are taken once two reads two seconds
  // apart agree, so subscribers do not filter on the few books that happened to arrive first.
  const deadline = Date.now() + 120_000;
  let last = await read();
  for (;;) {
    await new Promise((r) => setTimeout(r, 2_000));
    const next = await read();
    const settled = next.books.length > 0 && JSON.stringify(next) === JSON.stringify(last);
    if (settled || Date.now() > deadline) return next;
    last = next;
  }
}

/** MCP calls, paced, from one process at a time, until the deadline. */
async function mcpLoad(base: string, key: string, deadline: number): Promise<{ runs: number; failures: number; firstFailure: string }> {
  let runs = 0;
  let failures = 0;
  let firstFailure = '';
  while (Date.now() < deadline - 30_000) {
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = fork(sibling('mcp-client'), [base, key, '100', '200'], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
      let text = '';
      child.stderr?.on('data', (d: Buffer) => (text += String(d)));
      child.on('exit', (c) => resolve({ code: c, stderr: text }));
    });
    runs++;
    if (code === 0) continue;
    // A run that failed (a call shed with 503, most often, on a loaded machine) is counted, and the next one starts.
    failures++;
    firstFailure ||= stderr.split('\n')[0] ?? '';
  }
  return { runs, failures, firstFailure };
}

/** The server's open descriptors, those on its own per-thread /proc files, and its threads. */
function descriptors(pid: number): { fds: number; threadFds: number; threads: number } {
  const dir = `/proc/${pid}/fd`;
  const own = `/proc/${pid}/task/`;
  let fds = 0;
  let threadFds = 0;
  for (const fd of readdirSync(dir)) {
    let target: string;
    try {
      target = readlinkSync(`${dir}/${fd}`);
    } catch {
      continue; // closed between the listing and the look
    }
    fds++;
    if (target.startsWith(own)) threadFds++;
  }
  const threads = Number(/^Threads:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN);
  return { fds, threadFds, threads };
}

async function main(): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'odds-soak-'));
  log(
    `soak: ${(seconds / 60).toFixed(1)} min, ${subscriberCount} subscribers, simulator at ${ticksPerSecond} ticks/s, warm-up ${warmupSeconds} s; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  log(
    `soak: windows by age: ${windowsByAge.map(([name, s]) => `${name} ${s} s`).join(', ')}; the longest is ${longestWindowSeconds} s, so the warm-up is ${warmupSeconds} s`,
  );
  const server = fork(sibling('soak-server'), [], {
    // `make run`'s flags (NODE_RUN in the Makefile), after the loader flags tsx needs from source.
    execArgv: [...process.execArgv, '--max-semi-space-size=64'],
    env: {
      ...env,
      PORT: '0',
      HOST: '127.0.0.1',
      METRICS_PORT: '0',
      DATA_DIR: dataDir,
      FEED: 'simulator',
      SIM_TICKS_PER_SECOND: String(ticksPerSecond),
      // Heartbeats every 5 s, not 30: the end's check waits for one on every connection.
      STREAM_HEARTBEAT_SECONDS: '5',
      // Every subscriber connects from 127.0.0.1.
      MAX_CONNECTIONS_PER_ADDRESS: String(2 * subscriberCount + 200),
      LOG_LEVEL: env['LOG_LEVEL'] ?? 'warn',
      ...retentionSettings,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const children: ChildProcess[] = [server];
  const launched = Date.now();
  try {
    await nextMessage(server, 'started', 300_000);
    const keyCount = Math.ceil(subscriberCount / SUBS_PER_KEY) + 2;
    server.send({ type: 'keys', count: keyCount } satisfies ServerRequest);
    const ready = await nextMessage<ServerReady>(server, 'ready', 30_000);
    const loadKey = ready.keys[ready.keys.length - 1] as string;
    const mcpKey = ready.keys[ready.keys.length - 2] as string;
    log(
      `soak: server ${ready.url} (pid ${String(server.pid)}), metrics ${ready.metricsUrl}, up after ${((Date.now() - launched) / 1000).toFixed(0)} s`,
    );
    // The run's clock starts with the load: a slow start on a loaded machine does not eat into it.
    const started = Date.now();
    const deadline = started + seconds * 1000;

    const { books, leagues } = await filterValues(ready.url, loadKey);
    const clients = fork(sibling('soak-clients'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    children.push(clients);
    let streamLag = Number.NaN;
    /** When the subscribers were in (or stopped waiting for the rest): the warm-up lasts at least until then. */
    let readyAt = Number.POSITIVE_INFINITY;
    clients.on('message', (m: ClientsMessage) => {
      // IPC carries JSON: a window without rows comes as null.
      if (m.type === 'lag') streamLag = m.p99Ms ?? Number.NaN;
      if (m.type === 'ready') {
        readyAt = (Date.now() - started) / 1000;
        log(`soak: ${m.subscribers} of ${subscriberCount} subscribers have their snapshot after ${readyAt.toFixed(0)} s`);
      }
    });
    clients.send({ base: ready.url, subs: subscriptions(ready.url, ready.keys, books, leagues) } satisfies ClientsInput);

    // Two connections each asking for 200 rows every 100 ms or so: a steady poller's load, not a flood.
    const restWorker = fork(sibling('load-worker'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    children.push(restWorker);
    const rest = nextMessage<WorkerResult>(restWorker, null, seconds * 1000 + 120_000);
    restWorker.send({
      base: ready.url,
      path: '/api/v1/odds?limit=200',
      key: loadKey,
      connections: 2,
      seconds: Math.max(1, (deadline - Date.now()) / 1000),
      probeHealth: false,
      pauseMs: 100,
    });
    const mcp = mcpLoad(ready.url, mcpKey, deadline);

    const samples: SoakSample[] = [];
    const failures0: string[] = [];
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, Math.min(SAMPLE_MS, deadline - Date.now())));
      const text = await (await fetch(`${ready.metricsUrl}/metrics`)).text();
      const sample: SoakSample = {
        t: Math.round((Date.now() - started) / 1000),
        rssBytes: metric(text, 'process_resident_memory_bytes'),
        heapUsedBytes: metric(text, 'nodejs_heap_size_used_bytes'),
        heapAfterGcBytes: metric(text, 'odds_heap_used_after_major_gc_bytes'),
        externalBytes: metric(text, 'nodejs_external_memory_bytes'),
        ...descriptors(server.pid as number),
        eventLoopP99Ms: metric(text, 'nodejs_eventloop_lag_p99_seconds') * 1000,
        streamLagP99Ms: streamLag,
        storeParts: metric(text, 'odds_store_active_parts'),
        pipelineLag: metricSum(text, 'odds_stage_lag_records'),
        boardRows: metric(text, 'odds_board_rows'),
        boardEvents: metric(text, 'odds_board_events'),
        boardRowsTakenIn: metric(text, 'odds_board_rows_taken_in'),
      };
      // Once a minute, after the metrics were read so the pause does not show in them.
      if (samples.length % FORCED_GC_EVERY_READINGS === 0) {
        server.send({ type: 'gc' } satisfies ServerRequest);
        sample.heapForcedGcBytes = (await nextMessage<ServerHeap>(server, 'gc', 60_000)).heapUsedBytes;
      }
      samples.push(sample);
      const mb = (b: number): string => (b / 1e6).toFixed(0);
      log(
        `  ${String(sample.t).padStart(5)} s  rss ${mb(sample.rssBytes)} MB  heap ${mb(sample.heapUsedBytes)} (after GC ${mb(sample.heapAfterGcBytes)}${sample.heapForcedGcBytes === undefined ? '' : `, forced ${mb(sample.heapForcedGcBytes)}`}) MB  external ${mb(sample.externalBytes)} MB  fds ${sample.fds} (per-thread ${sample.threadFds}, threads ${sample.threads})  loop p99 ${sample.eventLoopP99Ms.toFixed(0)} ms  stream lag p99 ${Number.isNaN(streamLag) ? '-' : streamLag.toFixed(0)} ms  parts ${sample.storeParts}  pipeline lag ${sample.pipelineLag}  board ${sample.boardRows} rows, ${sample.boardEvents} events  load ${loadavg()[0]?.toFixed(2) ?? ''}`,
      );
    }

    const [restResult, mcpResult] = await Promise.all([rest, mcp]);
    log('soak: load over; stopping the feed for the quiet period');
    server.send({ type: 'quiet' } satisfies ServerRequest);
    const quietFrom = Date.now();
    const quiet = await nextMessage<{ drained: boolean }>(server, 'quiet', 360_000);
    log(
      `soak: pipeline ${quiet.drained ? 'drained' : 'NOT drained'} ${((Date.now() - quietFrom) / 1000).toFixed(0)} s after the feed stopped`,
    );
    if (!quiet.drained) failures0.push('the pipeline had not drained 300 s after the feed stopped (it could not keep up with the load)');
    clients.send({ type: 'check' });
    const { report } = await nextMessage<{ report: ClientsReport }>(clients, 'report', 300_000);

    const warmup = Math.max(warmupSeconds, Math.ceil(readyAt));
    if (warmup > warmupSeconds) log(`soak: the warm-up ran to ${warmup} s, when the subscribers were in`);
    const settledAt = keyTablesSettledAt(samples);
    const memoryWarmup = memoryWarmupOf(samples, warmup);
    const last = samples[samples.length - 1];
    log(
      settledAt === null
        ? `soak: the board's key tables had not settled when the run ended (${last?.boardRowsTakenIn ?? 0} rows taken in, ${last?.boardRows ?? 0} on the board): memory is reported, not judged`
        : `soak: the board's key tables settled at ${settledAt} s; memory is judged from ${memoryWarmup} s`,
    );
    const verdict = judgeSoak(samples, {
      warmupSeconds: warmup,
      memoryWarmupSeconds: memoryWarmup,
      memoryVerdictRequired: seconds >= MEMORY_VERDICT_REQUIRED_SECONDS,
      maxGrowthPerHour: 0.05,
      maxFdGrowthPerHour,
    });
    const failures = [...failures0, ...verdict.failures];
    if (report.outOfStep.length > 0)
      failures.push(`${report.outOfStep.length} subscribers out of step with /odds (first: ${JSON.stringify(report.outOfStep[0])})`);
    if (report.notHeard > 0) failures.push(`${report.notHeard} subscribers heard no heartbeat in the 60 s after the feed stopped`);

    const minutes = Number((seconds / 60).toFixed(2));
    mkdirSync(outDir, { recursive: true });
    // Rates other than the defaults are in the name, so a development run is never taken for the real one.
    const rates = `${ticksPerSecond === 2000 ? '' : `-${ticksPerSecond}tps`}${subscriberCount === 500 ? '' : `-${subscriberCount}subs`}`;
    const base = join(outDir, `soak-${minutes}min${rates}`);
    writeFileSync(`${base}.csv`, soakCsv(samples));
    writeFileSync(
      `${base}.svg`,
      soakChart(
        samples,
        { windows: warmup, memory: memoryWarmup },
        `Soak, ${minutes} min: ${subscriberCount} subscribers, ${ticksPerSecond} ticks/s, REST and MCP load`,
      ),
    );

    const statuses = Object.entries(restResult.byStatus)
      .map(([status, ms]) => `${status}: ${ms.length}`)
      .join(', ');
    log('');
    log(`soak summary (${minutes} min; wrote ${base}.csv and ${base}.svg)`);
    for (const line of verdict.lines) log(`  ${line}`);
    log(
      `  store parts: ${samples[0]?.storeParts ?? '-'} at the first reading, ${samples[samples.length - 1]?.storeParts ?? '-'} at the last`,
    );
    log(
      `  board: ${samples[0]?.boardRows ?? '-'} rows and ${samples[0]?.boardEvents ?? '-'} events at the first reading, ${samples[samples.length - 1]?.boardRows ?? '-'} and ${samples[samples.length - 1]?.boardEvents ?? '-'} at the last`,
    );
    log(
      `  subscribers: ${report.subscribers}; compared with /odds ${report.inStepChecked}, out of step ${report.outOfStep.length}; reconnects ${report.reconnects} (resumed ${report.resumed}, resyncs ${report.resyncs}), cut off as slow ${report.backpressure}, refused ${JSON.stringify(report.refused)}`,
    );
    log(
      `  REST load: ${statuses} (connection failures ${restResult.failures}); MCP load: ${mcpResult.runs} client runs, ${mcpResult.failures} failed${mcpResult.firstFailure ? ` (first: ${mcpResult.firstFailure.slice(0, 300)})` : ''}`,
    );
    if (failures.length === 0) {
      log('soak passed');
      return 0;
    }
    for (const f of failures) log(`soak FAILED: ${f}`);
    return 1;
  } finally {
    server.send({ type: 'stop' } satisfies ServerRequest);
    await Promise.race([new Promise((r) => server.once('exit', r)), new Promise((r) => setTimeout(r, 30_000))]);
    for (const child of children) if (child.exitCode === null) child.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`soak failed to run: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
