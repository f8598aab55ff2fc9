/**
 * The clients of `make chaos`, in the driver's process: stream subscribers (SSE and WebSocket)
 * that move to the other API replica whenever their connection ends and resume by their last
 * position, `/odds/delta` pollers that alternate replicas by cursor, and a paced REST load. Every
 * answer goes through `ChaosHttp`, which counts statuses (a 5xx other than a 503 with
 * Retry-After is a failure); every resync is counted with why it happened, never hidden.
 */
import { request } from 'node:http';
import type { ClientRequest } from 'node:http';
import WebSocket from 'ws';
import { comparableRow } from '../test/support/comparable-row.js';
import { SseFrameOrder } from './chaos-frame-order.js';
import { OddsMirror } from './soak-mirror.js';
import type { MirrorDiff } from './soak-mirror.js';
import { sseFrames } from './sse-frames.js';

type Row = Record<string, unknown>;

/** An API replica as the clients see it: its address and how many times it was started. */
export interface ReplicaView {
  readonly name: string;
  readonly url: string;
  readonly generation: number;
}

/** Counts kept apart for SSE and WebSocket clients: only SSE resumes on another replica. */
export interface PerKind {
  sse: number;
  ws: number;
}

export class ChaosCounters {
  readonly reconnects: PerKind = { sse: 0, ws: 0 };
  readonly resumed: PerKind = { sse: 0, ws: 0 };
  /** WebSocket: messages marked `replay`; SSE: frames of a resumed connection before its first heartbeat (an upper bound). */
  replayedFrames = 0;
  /** By `<sse|ws|delta>: <reason>`. */
  readonly resyncs = new Map<string, number>();
  /** A frame delivered twice or out of order on a stream (see SseFrameOrder; the WebSocket's integer sequence). */
  readonly orderViolations: string[] = [];
  readonly status = { ok: 0, clientError: 0, shed503: 0, other5xx: 0, unreachable: 0 };
  readonly fiveXxExamples: string[] = [];
  deltaPolls = 0;
  restRequests = 0;

  resync(reason: string): void {
    this.resyncs.set(reason, (this.resyncs.get(reason) ?? 0) + 1);
  }

  /** A status the server answered (`null`: the replica did not answer at all, as while it is down). */
  answered(status: number | null, what: string, retryAfter: string | null): void {
    if (status === null) this.status.unreachable++;
    else if (status < 400) this.status.ok++;
    else if (status < 500) this.status.clientError++;
    else if (status === 503 && retryAfter !== null) this.status.shed503++;
    else {
      this.status.other5xx++;
      if (this.fiveXxExamples.length < 5) this.fiveXxExamples.push(`${status} ${what}`);
    }
  }
}

/** Why a client holding a position issued by `from` got a resync from `to`. */
export function resyncReason(from: { name: string; generation: number } | null, to: ReplicaView): string {
  if (from === null) return 'no resume position yet (dropped during a snapshot)';
  if (from.name !== to.name) return 'moved to the other replica';
  if (from.generation !== to.generation) return 'replica restarted since';
  return 'outside the replay window';
}

/**
 * The WebSocket's `global_seq` is exact only on the process that numbered it (docs/api.md), so
 * its resyncs after a move or a restart are by design; they are counted under their own name so
 * they never hide an SSE or delta resync.
 */
export function resyncLabel(kind: 'sse' | 'ws' | 'delta', reason: string): string {
  const byDesign = kind === 'ws' && (reason === 'moved to the other replica' || reason === 'replica restarted since');
  return `${kind}: ${reason}${byDesign ? ' (by design)' : ''}`;
}

/** A GET with the key; null when the replica cannot be reached. Counted either way. */
async function getOnce(
  counters: ChaosCounters,
  url: string,
  key: string,
): Promise<{ status: number; body: Row; retryAfter: string | null } | null> {
  try {
    const res = await fetch(url, { headers: { 'x-api-key': key }, signal: AbortSignal.timeout(20_000) });
    const retryAfter = res.headers.get('retry-after');
    counters.answered(res.status, url, retryAfter);
    const text = await res.text();
    let body: Row = {};
    try {
      body = JSON.parse(text) as Row;
    } catch {
      body = { text: text.slice(0, 200) };
    }
    return { status: res.status, body, retryAfter };
  } catch {
    counters.answered(null, url, null);
    return null;
  }
}

/**
 * A GET as a well-behaved client makes it: a 503 shed with Retry-After waits that long and asks
 * again (up to `retries` times); every answer is counted.
 */
export async function chaosGet(
  counters: ChaosCounters,
  url: string,
  key: string,
  retries = 0,
): Promise<{ status: number; body: Row; retryAfter: string | null } | null> {
  for (let attempt = 0; ; attempt++) {
    const r = await getOnce(counters, url, key);
    if (r === null || r.status !== 503 || r.retryAfter === null || attempt >= retries) return r;
    await new Promise((resolve) => setTimeout(resolve, Number(r.retryAfter) * 1000));
  }
}

/** `/odds` under `query`, every page, as comparable rows by id, with the snapshot's delta cursor (null when it could not be read). */
export async function oddsBoard(
  counters: ChaosCounters,
  base: string,
  query: string,
  key: string,
): Promise<{ rows: Map<string, string>; deltaCursor: string } | null> {
  const rows = new Map<string, string>();
  let page: string | null = null;
  let deltaCursor = '';
  do {
    const r = await chaosGet(
      counters,
      `${base}/api/v1/odds?${query}&limit=1000${page ? `&cursor=${encodeURIComponent(page)}` : ''}`,
      key,
      10,
    );
    if (r?.status !== 200) return null;
    if (deltaCursor === '') deltaCursor = String((r.body['meta'] as Row)['delta_cursor'] ?? '');
    for (const row of r.body['data'] as Row[]) rows.set(row['id'] as string, comparableRow(row));
    page = (r.body['pagination'] as Row)['next_cursor'] as string | null;
  } while (page !== null);
  return { rows, deltaCursor };
}

export function sameRows(held: ReadonlyMap<string, string>, truth: ReadonlyMap<string, string>): MirrorDiff {
  const differing = [...truth.keys()].filter((id) => held.get(id) !== truth.get(id));
  const extra = [...held.keys()].filter((id) => !truth.has(id));
  return { differing: differing.slice(0, 3), extra: extra.slice(0, 3), differingCount: differing.length, extraCount: extra.length };
}

/** Where one WebSocket connection's live frames stand: the sequence it resumed from (if it did) and the last one seen. */
interface ConnectionOrder {
  resumedFrom: number | null;
  last: number | null;
}

/** One stream subscriber: always connected to one replica, or on its way to the other. */
export class StreamClient {
  readonly mirror = new OddsMirror();
  /** The last live position applied, and which replica (and which start of it) issued it. */
  private position: string | null = null;
  private issuedBy: { name: string; generation: number } | null = null;
  private at = 0;
  private close: (() => void) | null = null;
  private readonly sseOrder = new SseFrameOrder();
  private stopped = false;
  private opened = false;
  lastHeartbeat = 0;

  constructor(
    readonly kind: 'sse' | 'ws',
    readonly query: string,
    private readonly key: string,
    private readonly replicas: () => readonly ReplicaView[],
    private readonly counters: ChaosCounters,
    first: number,
  ) {
    this.at = first;
  }

  get replica(): ReplicaView {
    return this.replicas()[this.at] as ReplicaView;
  }

  open(): void {
    if (this.stopped) return;
    if (this.opened) this.counters.reconnects[this.kind]++;
    this.opened = true;
    if (this.kind === 'sse') this.openSse();
    else this.openWs();
  }

  /** Hangs up (the client's own choice); it comes back on the other replica. */
  hangUp(): void {
    this.close?.();
  }

  stop(): void {
    this.stopped = true;
    this.close?.();
  }

  /** After any end of a connection: the other replica, a second later. */
  private ended(): void {
    this.close = null;
    if (this.stopped) return;
    this.at = (this.at + 1) % this.replicas().length;
    setTimeout(() => this.open(), 1000);
  }

  /**
   * A WebSocket message's `global_seq`. On one connection it never goes back (several messages
   * may share one: a position's rows go out as one message per book, a heartbeat carries the
   * last one), and a resumed connection sends nothing but heartbeats at or before the sequence it
   * resumed from: anything else is a message delivered twice.
   */
  private liveWs(seq: number, replica: ReplicaView, order: ConnectionOrder, heartbeat: boolean): void {
    const backwards = order.last !== null && seq < order.last;
    if (backwards || (!heartbeat && order.resumedFrom !== null && seq <= order.resumedFrom))
      this.counters.orderViolations.push(`ws ${replica.name}: message ${seq} after ${String(order.last ?? order.resumedFrom)}`);
    order.last = seq;
    this.position = String(seq);
    this.issuedBy = { name: replica.name, generation: replica.generation };
  }

  private connectedAs(body: Row, replica: ReplicaView): void {
    if (body['resumed'] === true) this.counters.resumed[this.kind]++;
    if (body['resync'] === true) {
      this.counters.resync(resyncLabel(this.kind, resyncReason(this.issuedBy, replica)));
      // What it held is replaced: until the snapshot completes it has no resume point (docs/api.md).
      this.position = null;
      this.issuedBy = null;
    }
  }

  private openSse(): void {
    const replica = this.replica;
    const url = `${replica.url}/api/v1/stream/odds?api_key=${this.key}${this.query ? `&${this.query}` : ''}`;
    const headers: Record<string, string> = this.position ? { 'last-event-id': this.position } : {};
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      this.ended();
    };
    const req: ClientRequest = request(url, { agent: false, headers }, (res) => {
      this.counters.answered(res.statusCode ?? 0, `SSE ${replica.name}`, (res.headers['retry-after'] as string | undefined) ?? null);
      if (res.statusCode !== 200) {
        res.resume();
        res.on('end', finish);
        return;
      }
      let resumed = false;
      let heardHeartbeat = false;
      res.setEncoding('utf8');
      res.on(
        'data',
        sseFrames((event, id, data) => {
          const body = JSON.parse(data) as Row;
          if (event === 'connected') {
            resumed = body['resumed'] === true;
            this.sseOrder.connected(id);
            this.connectedAs(body, replica);
          } else if (event === 'heartbeat') {
            heardHeartbeat = true;
            this.lastHeartbeat = Date.now();
          } else if (resumed && !heardHeartbeat) this.counters.replayedFrames++;
          this.mirror.applySse(event, body);
          // Snapshot frames' ids (`<n>-s<k>`, and `connected` before one) are not resume points;
          // every other id is kept as the opaque text it is.
          if (event === 'connected' || event === 'snapshot' || id === '' || /-s\d+$/.test(id)) return;
          const wrong = this.sseOrder.frame(id, event.startsWith('odds:'));
          if (wrong !== null) this.counters.orderViolations.push(`sse ${replica.name}: ${wrong}`);
          this.position = id;
          this.issuedBy = { name: replica.name, generation: replica.generation };
        }),
      );
      res.on('close', finish);
    });
    req.on('error', () => {
      this.counters.answered(null, `SSE ${replica.name}`, null);
      finish();
    });
    req.end();
    this.close = () => req.destroy();
  }

  private openWs(): void {
    const replica = this.replica;
    const base = `${replica.url.replace(/^http/, 'ws')}/ws?api_key=${this.key}&channels=odds${this.query ? `&${this.query}` : ''}`;
    const ws = new WebSocket(this.position ? `${base}&resume=true&from_seq=${this.position}` : base, 'sharpapi-v1', {
      maxPayload: 64 * 1024 * 1024,
    });
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      this.ended();
    };
    let inSnapshot = true;
    // Replayed messages come before `snapshot:complete` says whether the server resumed: they
    // are held against the position asked for.
    const from = this.position === null ? null : Number(this.position);
    const order: ConnectionOrder = { resumedFrom: null, last: null };
    let connectionSeq = 0;
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as Row;
      const type = m['type'];
      // The connection's own `seq` counts 1, 2, 3 ... without gaps.
      if (typeof m['seq'] === 'number') {
        if (m['seq'] !== connectionSeq + 1)
          this.counters.orderViolations.push(`ws ${replica.name}: seq ${m['seq']} after ${connectionSeq}`);
        connectionSeq = m['seq'];
      }
      if (type === 'heartbeat') this.lastHeartbeat = Date.now();
      if (m['replay'] === true) {
        this.counters.replayedFrames++;
        const seq = m['global_seq'];
        if (typeof seq === 'number' && from !== null && seq <= from)
          this.counters.orderViolations.push(`ws ${replica.name}: replayed ${seq}, resumed from ${String(from)}`);
      }
      if (type === 'snapshot:complete') {
        inSnapshot = false;
        if (m['resumed'] === true) order.resumedFrom = from;
        this.connectedAs(m, replica);
      }
      this.mirror.applyWs(m);
      const seq = m['global_seq'];
      if (!inSnapshot && typeof seq === 'number') this.liveWs(seq, replica, order, type === 'heartbeat');
    });
    ws.on('upgrade', () => this.counters.answered(101, `WS ${replica.name}`, null));
    ws.on('unexpected-response', (_req, res) => {
      this.counters.answered(res.statusCode ?? 0, `WS ${replica.name}`, (res.headers['retry-after'] as string | undefined) ?? null);
      finish();
    });
    ws.on('close', finish);
    ws.on('error', (e) => {
      if (/ECONNREFUSED|ECONNRESET/.test(e.message) && !done) this.counters.answered(null, `WS ${replica.name}`, null);
      finish();
    });
    this.close = () => ws.terminate();
  }
}

/** A `/odds/delta` poller: a mirror of `/odds` kept by cursor, each poll on the next replica. */
export class DeltaPoller {
  rows = new Map<string, string>();
  private cursor: string | null = null;
  private issuedBy: { name: string; generation: number } | null = null;
  private at = 0;
  /** How many 503s with Retry-After one request waits out (the end's check waits; the live loop moves on). */
  retries = 0;

  constructor(
    private readonly key: string,
    private readonly replicas: () => readonly ReplicaView[],
    private readonly counters: ChaosCounters,
  ) {}

  /** One poll on the next replica (every page); false when that replica did not answer. */
  async poll(on?: number): Promise<boolean> {
    this.at = on ?? (this.at + 1) % this.replicas().length;
    const replica = this.replicas()[this.at] as ReplicaView;
    if (this.cursor === null) return this.reload(replica);
    for (let page = 0; page < 1000; page++) {
      this.counters.deltaPolls++;
      const r = await chaosGet(
        this.counters,
        `${replica.url}/api/v1/odds/delta?cursor=${encodeURIComponent(this.cursor)}&limit=1000`,
        this.key,
        this.retries,
      );
      if (r === null || r.status === 503) return false;
      if (r.status === 410) {
        this.counters.resync(resyncLabel('delta', resyncReason(this.issuedBy, replica)));
        return this.reload(replica);
      }
      if (r.status !== 200) throw new Error(`/odds/delta on ${replica.name} answered ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`);
      for (const row of r.body['data'] as Row[]) this.rows.set(row['id'] as string, comparableRow(row));
      for (const gone of r.body['removed'] as Row[]) this.rows.delete(gone['id'] as string);
      this.cursor = (r.body['meta'] as Row)['next_cursor'] as string;
      this.issuedBy = { name: replica.name, generation: replica.generation };
      if (!(r.body['pagination'] as Row)['has_more']) return true;
    }
    throw new Error(`/odds/delta on ${replica.name} never ended`);
  }

  private async reload(replica: ReplicaView): Promise<boolean> {
    const board = await oddsBoard(this.counters, replica.url, '', this.key);
    if (board === null) return false;
    this.rows = board.rows;
    this.cursor = board.deltaCursor;
    this.issuedBy = { name: replica.name, generation: replica.generation };
    return true;
  }
}

const REST_PATHS = [
  '/api/v1/odds?limit=100&league=nba',
  '/api/v1/odds/best?league=nfl',
  '/api/v1/events',
  '/api/v1/opportunities/ev',
  '/api/v1/opportunities/arbitrage',
  '/api/v1/sportsbooks',
];

/** Paced REST load: one request every `everyMs`, to a random replica and path, until `until()`. */
export async function restLoad(
  counters: ChaosCounters,
  replicas: () => readonly ReplicaView[],
  key: string,
  everyMs: number,
  until: () => boolean,
): Promise<void> {
  while (!until()) {
    const list = replicas();
    const replica = list[Math.floor(Math.random() * list.length)] as ReplicaView;
    const path = REST_PATHS[Math.floor(Math.random() * REST_PATHS.length)] as string;
    counters.restRequests++;
    await chaosGet(counters, `${replica.url}${path}`, key);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
