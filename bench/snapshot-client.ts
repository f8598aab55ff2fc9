/**
 * One subscriber of the large-snapshot bench (bench/snapshot.ts), in its own process so that
 * reading tens of megabytes does not run on the server's event loop it measures. Argument: a JSON
 * job. Prints one JSON line: milliseconds from connect to `snapshot:complete` (or the last page),
 * bytes and messages received, each message's size (for the bare server's replay), and whether
 * the server closed the connection first.
 */
import WebSocket from 'ws';

interface Job {
  kind: 'ws' | 'sse' | 'pages';
  url: string;
  headers?: Record<string, string>;
}

/** What the client prints: also the bench's view of it (bench/snapshot.ts). */
export interface Result {
  ms: number;
  connectedMs: number;
  bytes: number;
  messages: number;
  sizes: number[];
  rows: number;
  closedEarly: string | null;
}

const COMPLETE_WS = '{"type":"snapshot:complete"';

async function ws(job: Job): Promise<Result> {
  const t0 = performance.now();
  const r: Result = { ms: 0, connectedMs: 0, bytes: 0, messages: 0, sizes: [], rows: 0, closedEarly: null };
  const socket = new WebSocket(job.url, 'sharpapi-v1', {
    headers: job.headers ?? {},
    maxPayload: 256 * 1024 * 1024,
    perMessageDeflate: false,
  });
  return new Promise<Result>((resolve) => {
    socket.on('message', (data: Buffer) => {
      r.bytes += data.length;
      r.messages++;
      r.sizes.push(data.length);
      if (r.messages === 1) r.connectedMs = performance.now() - t0;
      const head = data.subarray(0, COMPLETE_WS.length).toString();
      if (head === COMPLETE_WS) {
        r.ms = performance.now() - t0;
        r.rows = (JSON.parse(String(data)) as { total_odds: number }).total_odds;
        socket.terminate();
        resolve(r);
      }
    });
    socket.on('close', (code, reason) => {
      r.closedEarly = `closed ${code} ${String(reason)}`;
      r.ms = performance.now() - t0;
      resolve(r);
    });
    socket.on('error', (e) => {
      r.closedEarly = `error ${e.message}`;
      resolve(r);
    });
  });
}

/** Frames end at a blank line; `snapshot:complete` is the last of the snapshot. */
async function sse(job: Job): Promise<Result> {
  const t0 = performance.now();
  const r: Result = { ms: 0, connectedMs: 0, bytes: 0, messages: 0, sizes: [], rows: 0, closedEarly: null };
  const ac = new AbortController();
  const res = await fetch(job.url, { headers: job.headers ?? {}, signal: ac.signal });
  if (res.status !== 200 || !res.body) return { ...r, closedEarly: `status ${res.status}` };
  const decoder = new TextDecoder();
  let pending = '';
  try {
    for await (const chunk of res.body) {
      r.bytes += chunk.length;
      pending += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = pending.indexOf('\n\n')) >= 0) {
        const frame = pending.slice(0, end + 2);
        pending = pending.slice(end + 2);
        r.messages++;
        r.sizes.push(Buffer.byteLength(frame));
        if (r.messages === 1) r.connectedMs = performance.now() - t0;
        if (frame.includes('event: snapshot:complete\n')) {
          r.ms = performance.now() - t0;
          const data = /^data: (.*)$/m.exec(frame)?.[1] ?? '{}';
          r.rows = (JSON.parse(data) as { total_odds: number }).total_odds;
          ac.abort();
          return r;
        }
      }
    }
  } catch (e) {
    if (r.ms === 0) r.closedEarly = `error ${e instanceof Error ? e.message : String(e)}`;
  }
  if (r.ms === 0) {
    r.ms = performance.now() - t0;
    r.closedEarly ??= 'stream ended';
  }
  return r;
}

/** The REST way to the same rows: `/odds` pages of 1000, walked by cursor, one after the other. */
async function pages(job: Job): Promise<Result> {
  const t0 = performance.now();
  const r: Result = { ms: 0, connectedMs: 0, bytes: 0, messages: 0, sizes: [], rows: 0, closedEarly: null };
  let cursor: string | null = null;
  do {
    const res = await fetch(cursor === null ? job.url : `${job.url}&cursor=${encodeURIComponent(cursor)}`, { headers: job.headers ?? {} });
    const body = Buffer.from(await res.arrayBuffer());
    if (res.status !== 200)
      return { ...r, ms: performance.now() - t0, closedEarly: `status ${res.status}: ${body.subarray(0, 300).toString()}` };
    r.bytes += body.length;
    r.messages++;
    r.sizes.push(body.length);
    if (r.messages === 1) r.connectedMs = performance.now() - t0;
    const parsed = JSON.parse(body.toString()) as { data: unknown[]; pagination?: { next_cursor?: string | null } };
    r.rows += parsed.data.length;
    cursor = parsed.pagination?.next_cursor ?? null;
  } while (cursor !== null);
  r.ms = performance.now() - t0;
  return r;
}

const job = JSON.parse(process.argv[2] ?? '{}') as Job;
const run = job.kind === 'ws' ? ws : job.kind === 'sse' ? sse : pages;
run(job).then(
  (r) => {
    process.stdout.write(`${JSON.stringify(r)}\n`);
    process.exit(0);
  },
  (e: unknown) => {
    process.stderr.write(`snapshot client failed: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
