import WebSocket from 'ws';

/**
 * Resolves when `pred` holds, re-checking whenever `subscribe`'s callback fires (or every 200 ms);
 * rejects when `failed` says the connection is gone, or after the timeout.
 */
async function waitFor(
  pred: () => boolean,
  failed: () => string | null,
  subscribe: (wake: () => void) => void,
  describe: () => string,
  timeoutMs: number,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!pred()) {
    const gone = failed();
    if (gone !== null) throw new Error(gone);
    const left = end - Date.now();
    if (left <= 0) throw new Error(`timed out waiting (${describe()})`);
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, Math.min(left, 200));
      subscribe(() => {
        clearTimeout(t);
        resolve();
      });
    });
  }
}

export interface SseFrame {
  id: string | undefined;
  event: string;
  data: unknown;
  /** The `data:` lines as received. */
  text: string;
}

/**
 * A real HTTP client of an event stream (fetch, reading the body as it arrives), parsing frames
 * as EventSource does: `id:`, `event:`, `data:` lines up to a blank line; `retry:` noted.
 */
export class SseClient {
  readonly frames: SseFrame[] = [];
  retry: number | null = null;
  status = 0;
  body: unknown = null;
  lastId: string | undefined;
  ended = false;
  private readonly controller = new AbortController();
  private waiters: (() => void)[] = [];

  static async open(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
    const c = new SseClient();
    const res = await fetch(url, { headers, signal: c.controller.signal });
    c.status = res.status;
    if (res.status !== 200 || !res.body) {
      c.body = await res.json().catch(() => null);
      c.ended = true;
      return c;
    }
    void c.read(res.body);
    return c;
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    let frame: { id?: string; event?: string; data: string[] } = { data: [] };
    try {
      for await (const chunk of body) {
        buffer += decoder.decode(chunk, { stream: true });
        const lines = buffer.split('\n');
        buffer = lines.pop() ?? '';
        for (const line of lines) {
          if (line === '') {
            if (frame.data.length > 0 || frame.event) {
              if (frame.id !== undefined) this.lastId = frame.id;
              const text = frame.data.join('\n');
              let data: unknown = text;
              try {
                data = JSON.parse(text);
              } catch {
                // raw text
              }
              this.frames.push({ id: frame.id, event: frame.event ?? 'message', data, text });
            }
            frame = { data: [] };
            continue;
          }
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'id') frame.id = value;
          else if (field === 'event') frame.event = value;
          else if (field === 'data') frame.data.push(value);
          else if (field === 'retry') this.retry = Number(value);
        }
        this.wake();
      }
    } catch {
      // aborted or cut
    }
    this.ended = true;
    this.wake();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /** Resolves when `pred` holds on the frames received so far (bounded). */
  async until(pred: (frames: SseFrame[]) => boolean, timeoutMs = 10_000): Promise<void> {
    await waitFor(
      () => pred(this.frames),
      () =>
        this.ended
          ? `stream ended before the condition held (${this.frames.length} frames, the last: ${JSON.stringify(this.frames.at(-1))?.slice(0, 300)})`
          : null,
      (wake) => this.waiters.push(wake),
      () =>
        `${this.frames.length} frames: ${this.frames
          .slice(-3)
          .map((f) => f.event)
          .join(', ')}`,
      timeoutMs,
    );
  }

  close(): void {
    this.controller.abort();
  }
}

export interface WsMessage {
  type: string;
  seq: number;
  global_seq?: number;
  [k: string]: unknown;
}

/** A `ws` client collecting messages, with the close code. */
export class WsClient {
  readonly messages: WsMessage[] = [];
  /** Each message as received. */
  readonly texts: string[] = [];
  closeCode: number | null = null;
  closeReason: string | null = null;
  private waiters: (() => void)[] = [];

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const text = String(data);
      this.texts.push(text);
      this.messages.push(JSON.parse(text) as WsMessage);
      this.wake();
    });
    ws.on('close', (code, reason) => {
      this.closeCode = code;
      this.closeReason = reason.toString();
      this.wake();
    });
    ws.on('error', () => this.wake());
  }

  static async open(url: string, headers: Record<string, string> = {}): Promise<WsClient> {
    const ws = new WebSocket(url, 'sharpapi-v1', { headers, maxPayload: 64 * 1024 * 1024 });
    const c = new WsClient(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return c;
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  async until(pred: (messages: WsMessage[]) => boolean, timeoutMs = 10_000): Promise<void> {
    await waitFor(
      () => pred(this.messages),
      () => (this.closeCode !== null ? `socket closed (${this.closeCode}) before the condition held` : null),
      (wake) => this.waiters.push(wake),
      () =>
        `${this.messages.length} messages: ${this.messages
          .slice(-3)
          .map((m) => m.type)
          .join(', ')}`,
      timeoutMs,
    );
  }

  async closed(timeoutMs = 10_000): Promise<number> {
    await waitFor(
      () => this.closeCode !== null,
      () => null,
      (wake) => this.waiters.push(wake),
      () => 'socket did not close',
      timeoutMs,
    );
    return this.closeCode as number;
  }

  send(m: unknown): void {
    this.ws.send(JSON.stringify(m));
  }

  close(): void {
    this.ws.terminate();
  }
}

/**
 * Connects, waits for `snapshot:complete`, and answers one list of one snapshot message (for
 * example `arbitrage` of `opportunities_snapshot`): what a subscriber is first shown, then hangs up.
 */
export async function wsSnapshotList(url: string, type: string, list: string): Promise<Record<string, unknown>[]> {
  const c = await WsClient.open(url);
  try {
    await c.until((m) => m.some((x) => x.type === 'snapshot:complete'));
    const snapshot = c.messages.find((x) => x.type === type);
    return (snapshot?.[list] ?? []) as Record<string, unknown>[];
  } finally {
    c.close();
  }
}

/** Applies odds frames (SSE or WS) to a map of row id -> row. */
export class OddsMirror {
  readonly rows = new Map<string, Record<string, unknown>>();

  reset(): void {
    this.rows.clear();
  }

  upsert(rows: Record<string, unknown>[]): void {
    for (const r of rows) this.rows.set(r['id'] as string, r);
  }

  remove(ids: string[]): void {
    for (const id of ids) this.rows.delete(id);
  }
}
