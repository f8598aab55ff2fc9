/**
 * The soak's stream subscribers, in a process of their own (forked by bench/soak.ts) so that
 * parsing frames does not share the server's event loop. Each subscriber keeps an `OddsMirror`
 * of its filter. `steady` ones read as fast as they can; `slow` ones stop reading for a few
 * seconds at a time; `reconnecting` ones hang up now and then and come back with their resume
 * position (Last-Event-ID, or `resume=true&from_seq`). Any subscriber the server closes (slow
 * reader cut off, displaced) comes back the same way. Every 10 s it sends the p99 of the time
 * from each odds row's `timestamp` to its arrival; asked to `check` (feed stopped, pipeline
 * drained), it stops hanging up, waits for a heartbeat after the request on every connection,
 * and compares each mirror with `/odds` under the same filters.
 */
import { request } from 'node:http';
import type { ClientRequest } from 'node:http';
import WebSocket from 'ws';
import { getJson } from './soak-http.js';
import { comparableRow } from '../test/support/comparable-row.js';
import { OddsMirror } from './soak-mirror.js';
import type { MirrorDiff } from './soak-mirror.js';
import { sseFrames } from './sse-frames.js';

export type Behaviour = 'steady' | 'slow' | 'reconnecting';

export interface SoakSub {
  kind: 'sse' | 'ws';
  /** The stream's URL without a resume position. */
  url: string;
  /** The `/odds` query string of the same filters (`sportsbook=..&league=..`). */
  query: string;
  key: string;
  behaviour: Behaviour;
}

export interface ClientsInput {
  base: string;
  subs: SoakSub[];
}

export interface OutOfStep extends MirrorDiff {
  kind: 'sse' | 'ws';
  behaviour: Behaviour;
  query: string;
  /** The first differing row as the mirror holds it and as `/odds` serves it. */
  example: { mirror: string | null; odds: string | null } | null;
}

export interface ClientsReport {
  subscribers: number;
  /** Subscribers that saw a heartbeat after the check began (the rest are reported, not compared). */
  inStepChecked: number;
  notHeard: number;
  outOfStep: OutOfStep[];
  reconnects: number;
  resumed: number;
  resyncs: number;
  backpressure: number;
  refused: Record<string, number>;
  frames: number;
}

/** Messages to the driver. */
export type ClientsMessage =
  | { type: 'ready'; subscribers: number }
  /** p99 of the last 10 s; null when no row was timed (JSON has no NaN). */
  | { type: 'lag'; p99Ms: number | null; rows: number }
  | { type: 'report'; report: ClientsReport };

type Row = Record<string, unknown>;

const send = (m: ClientsMessage): void => {
  process.send?.(m);
};

class Subscriber {
  readonly mirror = new OddsMirror();
  /** Each row's newest `timestamp` seen (steady subscribers only: they time the stream lag). */
  private readonly seen = new Map<string, number>();
  /** The resume position: the last sequence number applied outside a snapshot. */
  position: string | null = null;
  ready = false;
  lastHeartbeat = 0;
  private close: (() => void) | null = null;
  private pauseTimer: NodeJS.Timeout | null = null;
  private hangUpTimer: NodeJS.Timeout | null = null;
  constructor(readonly sub: SoakSub) {}

  open(): void {
    if (this.sub.kind === 'sse') this.openSse();
    else this.openWs();
    if (this.sub.behaviour === 'reconnecting' && !checking) {
      // Hang up after 20-80 s: the server must replay exactly what was missed meanwhile.
      this.hangUpTimer = setTimeout(() => this.hangUp(), 20_000 + Math.random() * 60_000);
    }
  }

  hangUp(): void {
    this.stopTimers();
    this.close?.();
  }

  stopTimers(): void {
    if (this.hangUpTimer) clearTimeout(this.hangUpTimer);
    if (this.pauseTimer) clearInterval(this.pauseTimer);
    this.hangUpTimer = null;
    this.pauseTimer = null;
  }

  /** After any close: back in a second with the resume position. */
  private closed(): void {
    this.stopTimers();
    this.close = null;
    if (stopping) return;
    stats.reconnects++;
    setTimeout(() => this.open(), 1000);
  }

  /**
   * Arrival minus `timestamp` for update rows (`timed`) carrying a price newer than the one
   * held. Snapshot rows (only noted) and rows sent again unchanged (a main-line flag flipped)
   * are not ticks arriving; a slow or reconnecting subscriber's delay is its own doing, so only
   * steady ones are timed.
   */
  private measure(rows: Row[] | undefined, timed: boolean): void {
    if (this.sub.behaviour !== 'steady' || checking) return;
    const now = Date.now();
    for (const r of rows ?? []) {
      const ts = Date.parse(String(r['timestamp'] ?? ''));
      const id = r['id'] as string;
      const before = this.seen.get(id);
      if (Number.isNaN(ts) || (before !== undefined && before >= ts)) continue;
      this.seen.set(id, ts);
      if (timed) latencies.push(now - ts);
    }
  }

  private heartbeat(): void {
    this.lastHeartbeat = Date.now();
  }

  private openSse(): void {
    const headers: Record<string, string> = this.position ? { 'last-event-id': this.position } : {};
    let req: ClientRequest | null = null;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      this.closed();
    };
    req = request(this.sub.url, { agent: false, headers }, (res) => {
      if (res.statusCode !== 200) {
        stats.refused[String(res.statusCode)] = (stats.refused[String(res.statusCode)] ?? 0) + 1;
        res.resume();
        res.on('end', finish);
        return;
      }
      res.setEncoding('utf8');
      if (this.sub.behaviour === 'slow') this.pauseTimer = slowReader(res);
      res.on(
        'data',
        sseFrames((event, id, data) => this.onSse(event, id, data)),
      );
      res.on('close', finish);
    });
    req.on('error', finish);
    req.end();
    this.close = () => req?.destroy();
  }

  private onSse(event: string, id: string, data: string): void {
    stats.frames++;
    const body = JSON.parse(data) as Row;
    if (event === 'connected') {
      if (body['resumed'] === true) stats.resumed++;
      if (body['resync'] === true) stats.resyncs++;
      return;
    }
    if (event === 'error' && body['code'] === 'backpressure') stats.backpressure++;
    if (event === 'heartbeat') this.heartbeat();
    if (event === 'snapshot:complete') this.ready = true;
    if (event === 'odds:update' || event === 'snapshot') this.measure(body['odds'] as Row[] | undefined, event === 'odds:update');
    this.mirror.applySse(event, body);
    // Snapshot frames' ids (`<n>-s<k>`) are not resume points.
    if (/^\d+$/.test(id) && event !== 'snapshot') this.position = id;
  }

  private openWs(): void {
    const url = this.position ? `${this.sub.url}&resume=true&from_seq=${this.position}` : this.sub.url;
    const ws = new WebSocket(url, 'sharpapi-v1', { maxPayload: 64 * 1024 * 1024 });
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      this.closed();
    };
    let inSnapshot = true;
    ws.on('open', () => {
      if (this.sub.behaviour === 'slow') this.pauseTimer = slowReader(ws);
    });
    ws.on('message', (raw) => {
      stats.frames++;
      const m = JSON.parse(String(raw)) as Row;
      const type = m['type'];
      if (type === 'connected') inSnapshot = true;
      if (type === 'error' && (m['code'] === 'backpressure' || (m['error'] as Row | undefined)?.['code'] === 'backpressure'))
        stats.backpressure++;
      if (type === 'heartbeat') this.heartbeat();
      if (type === 'odds:update' || type === 'initial')
        this.measure(m['data'] as Row[] | undefined, type === 'odds:update' && m['replay'] !== true);
      if (type === 'snapshot:complete') {
        inSnapshot = false;
        this.ready = true;
        if (m['resumed'] === true) stats.resumed++;
        if (m['resync'] === true) stats.resyncs++;
      }
      this.mirror.applyWs(m);
      const seq = m['global_seq'];
      if (!inSnapshot && typeof seq === 'number') this.position = String(seq);
    });
    ws.on('unexpected-response', (_req, res) => {
      stats.refused[String(res.statusCode)] = (stats.refused[String(res.statusCode)] ?? 0) + 1;
      finish();
    });
    ws.on('close', finish);
    ws.on('error', finish);
    this.close = () => ws.terminate();
  }
}

/** Reads for 10 s, then stops reading for 5 s, over and over (`pause` on the socket's stream). */
function slowReader(stream: { pause(): unknown; resume(): unknown }): NodeJS.Timeout {
  return setInterval(() => {
    if (checking) return;
    stream.pause();
    setTimeout(() => stream.resume(), 5000);
  }, 15_000);
}

const stats = { reconnects: 0, resumed: 0, resyncs: 0, backpressure: 0, frames: 0, refused: {} as Record<string, number> };
let checking = false;
let stopping = false;
let latencies: number[] = [];

function p99(xs: number[]): number {
  const s = xs.sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(0.99 * s.length))] ?? 0;
}

/** `/odds` under one filter, every page, as comparable rows by id. */
async function oddsNow(base: string, query: string, key: string): Promise<Map<string, string>> {
  const rows = new Map<string, string>();
  let cursor: string | null = null;
  do {
    const body = await getJson(`${base}/api/v1/odds?${query}&limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, key);
    for (const row of body['data'] as Row[]) rows.set(row['id'] as string, comparableRow(row));
    cursor = (body['pagination'] as Row)['next_cursor'] as string | null;
  } while (cursor !== null);
  return rows;
}

async function check(base: string, subscribers: Subscriber[]): Promise<ClientsReport> {
  checking = true;
  const since = Date.now();
  // Back in step: everyone reads again and reconnects once; then each must hear a heartbeat
  // sent after the check began, so every change before it has been written to its socket.
  const until = since + 60_000;
  while (Date.now() < until && subscribers.some((s) => s.lastHeartbeat <= since)) await new Promise((r) => setTimeout(r, 200));
  const heard = subscribers.filter((s) => s.lastHeartbeat > since);
  const truthByQuery = new Map<string, Map<string, string>>();
  const outOfStep: OutOfStep[] = [];
  for (const s of heard) {
    let truth = truthByQuery.get(s.sub.query);
    if (!truth) {
      truth = await oddsNow(base, s.sub.query, s.sub.key);
      truthByQuery.set(s.sub.query, truth);
    }
    const d = s.mirror.diff(truth);
    if (d.differingCount === 0 && d.extraCount === 0) continue;
    const id = d.differing[0] ?? d.extra[0];
    outOfStep.push({
      kind: s.sub.kind,
      behaviour: s.sub.behaviour,
      query: s.sub.query,
      ...d,
      example: id ? { mirror: s.mirror.row(id) ?? null, odds: truth.get(id) ?? null } : null,
    });
  }
  return {
    subscribers: subscribers.length,
    inStepChecked: heard.length,
    notHeard: subscribers.length - heard.length,
    outOfStep,
    ...stats,
  };
}

process.once('message', (input: ClientsInput) => {
  const subscribers = input.subs.map((s) => new Subscriber(s));
  // Connect in waves of 25 a second: the server's accept queue and first snapshots stay small.
  subscribers.forEach((s, i) => setTimeout(() => s.open(), Math.floor(i / 25) * 1000));
  // Bounded: on a machine too loaded to connect everyone in two minutes, say how many are in.
  const readyBy = Date.now() + 120_000;
  const readyCheck = setInterval(() => {
    const n = subscribers.filter((s) => s.ready).length;
    if (n === subscribers.length || Date.now() > readyBy) {
      clearInterval(readyCheck);
      send({ type: 'ready', subscribers: n });
    }
  }, 500);
  setInterval(() => {
    const window = latencies;
    latencies = [];
    send({ type: 'lag', p99Ms: window.length === 0 ? null : p99(window), rows: window.length });
  }, 10_000).unref();
  process.on('message', (m: { type: string }) => {
    if (m.type === 'check') {
      for (const s of subscribers) s.stopTimers();
      void check(input.base, subscribers).then(
        (report) => {
          stopping = true;
          for (const s of subscribers) s.hangUp();
          process.send?.({ type: 'report', report } satisfies ClientsMessage, () => process.exit(0));
        },
        (e: unknown) => {
          process.stderr.write(`soak clients: the check failed: ${e instanceof Error ? e.message : String(e)}\n`);
          process.exit(1);
        },
      );
    }
  });
});
