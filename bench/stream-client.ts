/**
 * The subscriber side of the stream bench, in its own process so that parsing frames does not
 * share the server's event loop. Opens the SSE and WebSocket subscribers it is told to, prints
 * `ready` when every one has its snapshot, measures for the given seconds (frames received, and
 * per odds row the time from its `timestamp` to arrival), optionally records the frames of the
 * first subscriber of each filter (for the baseline), prints `measured`, then one JSON line of results.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import WebSocket from 'ws';
import { checkedTimedRows, messageType } from './frame-rows.js';
import type { TimedRow } from './frame-rows.js';

interface Sub {
  kind: 'sse' | 'ws';
  /** Path and query (SSE) or URL (WebSocket). */
  url: string;
  filter: string;
}

interface Config {
  subs: Sub[];
  seconds: number;
  record: boolean;
}

const config = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as Config;
const latencies: number[] = [];
let frames = 0;
let measuring = false;
let closedEarly = 0;
let readyCount = 0;
const recorded: Record<string, { sse: [number, string][]; ws: [number, string][] }> = Object.create(null) as Record<
  string,
  { sse: [number, string][]; ws: [number, string][] }
>;
const recorders = new Set<string>();
let t0 = 0;

/** Per subscriber, each row's last `timestamp` (snapshot and updates), by row id. */
type Seen = Map<string, number>;
let resent = 0;

/**
 * Per odds row, arrival time minus its `timestamp` (when the feed emitted the price). A row sent
 * again with the timestamp this subscriber already holds is not a tick arriving: it is the same
 * price presented again (its main-line flag flipped when another line of its event came or
 * went, or its event changed), so it is counted apart, not as latency.
 */
function measure(rows: TimedRow[] | undefined, seen: Seen): void {
  if (!rows) return;
  const now = Date.now();
  for (const r of rows) {
    // A locked row keeps its last price's timestamp; what the feed just emitted is the lock.
    const at = r.is_active === false && r.suspended_since ? r.suspended_since : r.timestamp;
    if (!at || !r.id) continue;
    const ts = Date.parse(at);
    const before = seen.get(r.id);
    seen.set(r.id, ts);
    if (!measuring) continue;
    if (before !== undefined && before >= ts) resent++;
    else latencies.push(now - ts);
  }
}

const started = Date.now();
const progress = setInterval(
  () => process.stderr.write(`  clients: ${readyCount}/${config.subs.length} ready after ${Math.round((Date.now() - started) / 1000)} s\n`),
  10_000,
);
progress.unref();

let announced = false;
function announce(): void {
  if (announced) return;
  announced = true;
  clearInterval(progress);
  if (refused.size > 0)
    process.stderr.write(`  SSE connects refused (status: count): ${[...refused].map(([k, v]) => `${k}: ${v}`).join(', ')}\n`);
  process.stdout.write(`ready ${readyCount}\n`);
}
// Bounded: on a machine too loaded to connect everyone in time, measure those that are in.
setTimeout(announce, 90_000).unref();

function ready(): void {
  readyCount++;
  if (readyCount === config.subs.length) announce();
}

const refused = new Map<number, number>();

function openSse(sub: Sub, recordIt: boolean, attempt = 0): void {
  const req = request(sub.url, { agent: false }, (res) => {
    // Refused (503 overloaded, 429): counted, and tried again a few times as a client would.
    if (res.statusCode !== 200) {
      refused.set(res.statusCode ?? 0, (refused.get(res.statusCode ?? 0) ?? 0) + 1);
      res.resume();
      if (attempt < 5) setTimeout(() => openSse(sub, recordIt, attempt + 1), 1000);
      return;
    }
    let buffer = '';
    let event = '';
    const seen: Seen = new Map();
    let isReady = false;
    let raw: string[] = [];
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk;
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        // Only the recording subscriber keeps the frame's text.
        if (recordIt) raw.push(line);
        if (line === '') {
          if (event === 'snapshot:complete' && !isReady) {
            isReady = true;
            ready();
          } else if (event !== '' && measuring) {
            frames++;
            if (recordIt && event !== 'heartbeat') recorded[sub.filter]?.sse.push([Date.now() - t0, `${raw.join('\n')}\n`]);
          }
          raw = [];
          event = '';
          continue;
        }
        if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ') && (event === 'odds:update' || event === 'snapshot')) {
          measure(
            checkedTimedRows(line.slice(6), (m) => (m as { odds?: TimedRow[] }).odds),
            seen,
          );
        }
      }
    });
    res.on('close', () => {
      if (measuring) closedEarly++;
    });
  });
  req.on('error', (e) => {
    process.stderr.write(`  sse error: ${e.message}\n`);
    if (measuring) closedEarly++;
  });
  req.end();
}

function openWs(sub: Sub, recordIt: boolean): void {
  const ws = new WebSocket(sub.url, 'sharpapi-v1', { maxPayload: 64 * 1024 * 1024 });
  let isReady = false;
  const seen: Seen = new Map();
  ws.on('message', (data) => {
    const text = String(data);
    const type = messageType(text);
    const rows = (): TimedRow[] => checkedTimedRows(text, (m) => (m as { data?: TimedRow[] }).data);
    if (type === 'initial') measure(rows(), seen);
    if (type === 'snapshot:complete' && !isReady) {
      isReady = true;
      ready();
      return;
    }
    if (!measuring) return;
    frames++;
    if (recordIt && type !== 'heartbeat') recorded[sub.filter]?.ws.push([Date.now() - t0, text]);
    if (type === 'odds:update') measure(rows(), seen);
  });
  ws.on('close', () => {
    if (measuring) closedEarly++;
  });
  ws.on('error', (e) => process.stderr.write(`  ws error: ${e.message}\n`));
}

// Connect in waves of 50 (each waits for the previous one's snapshots, at most 5 s), so the
// server's accept queue never overflows: this measures streaming, not a connection storm.
async function connectAll(): Promise<void> {
  for (let i = 0; i < config.subs.length; i += 50) {
    for (const sub of config.subs.slice(i, i + 50)) {
      const key = `${sub.kind}|${sub.filter}`;
      const recordIt = config.record && !recorders.has(key);
      if (recordIt) {
        recorders.add(key);
        recorded[sub.filter] ??= { sse: [], ws: [] };
      }
      if (sub.kind === 'sse') openSse(sub, recordIt);
      else openWs(sub, recordIt);
    }
    const until = Date.now() + 5000;
    while (readyCount < Math.min(config.subs.length, i + 50) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  }
}
void connectAll();

process.stdin.on('data', (d) => {
  if (String(d).includes('go')) {
    t0 = Date.now();
    const cpu0 = process.cpuUsage();
    measuring = true;
    setTimeout(() => {
      measuring = false;
      // First, so the server stops its trace before parsing the (large) results line.
      process.stdout.write('measured\n');
      const cpu = process.cpuUsage(cpu0);
      const cpuShare = (cpu.user + cpu.system) / 1000 / (Date.now() - t0);
      latencies.sort((a, b) => a - b);
      const q = (p: number): number => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
      process.stdout.write(
        `${JSON.stringify({ frames, seconds: config.seconds, ready: readyCount, rows: latencies.length, resent, p50: q(0.5), p99: q(0.99), closedEarly, cpuShare, recorded: config.record ? recorded : null })}\n`,
        () => process.exit(0),
      );
    }, config.seconds * 1000);
  }
});
