import { applyMarketChange, marketChangeProblem } from './market-cache.js';
import type { MarketBook } from './market-cache.js';
import type { StatusMessage, StreamClocks } from './protocol.js';
import { isObject, readStreamLine } from './stream-line.js';
import type { Json } from './stream-line.js';

/**
 * The stream's client state machine, without I/O: it reads one server message (one line) at a
 * time and keeps the market cache, the resume clocks and the segment being assembled. A change
 * split into segments (`SEG_START` … `SEG_END`) is applied only when complete, and its clocks
 * with it: a connection lost mid-segment resumes from the last whole change, so nothing is
 * applied twice or skipped. A message that cannot be read changes nothing and says why.
 */

export type ChangeType = 'SUB_IMAGE' | 'RESUB_DELTA' | 'HEARTBEAT' | null;

export type Decoded =
  | { kind: 'connection'; connectionId: string | null }
  | { kind: 'status'; status: StatusMessage }
  /** A whole change was applied to the markets named. */
  | {
      kind: 'changes';
      marketIds: readonly string[];
      /** Publish time, epoch ms. */
      publishTime: number;
      changeType: ChangeType;
      /** The server merged several updates into this one (it could not keep up, or conflation was asked for). */
      conflated: boolean;
    }
  /** A segment held until the change's last segment arrives. */
  | { kind: 'segment' }
  | { kind: 'heartbeat'; publishTime: number }
  /** A message of another stream (orders) or op, not ours to read. */
  | { kind: 'ignored'; op: string }
  | { kind: 'invalid'; reason: string; marketId: string | null };

interface PendingSegment {
  changes: Json[];
  clocks: Partial<StreamClocks>;
}

function readStatus(message: Json): StatusMessage | null {
  const code = message['statusCode'];
  if (code !== 'SUCCESS' && code !== 'FAILURE') return null;
  const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
  return {
    id: typeof message['id'] === 'number' ? message['id'] : null,
    statusCode: code,
    errorCode: str(message['errorCode']),
    errorMessage: str(message['errorMessage']),
    connectionClosed: message['connectionClosed'] === true,
  };
}

function firstMarketId(mc: unknown): string | null {
  if (!Array.isArray(mc)) return null;
  const first: unknown = mc[0];
  return isObject(first) && typeof first['id'] === 'string' ? first['id'] : null;
}

export class StreamDecoder {
  private readonly books = new Map<string, MarketBook>();
  private clocks: StreamClocks = { initialClk: null, clk: null };
  private pending: PendingSegment | null = null;

  /** Where a resubscription resumes: the clocks of the last whole change applied. */
  get resumeClocks(): StreamClocks {
    return { ...this.clocks };
  }

  /** Forget the clocks (the server refused them): the next subscription starts from a full image. */
  resetClocks(): void {
    this.clocks = { initialClk: null, clk: null };
  }

  /** A connection ended: a half-received segmented change is dropped (the resubscription sends it again). */
  connectionLost(): void {
    this.pending = null;
  }

  /** Drops a market from the cache (a closed market changes no more; a long-running feed must not keep them all). */
  forget(id: string): void {
    this.books.delete(id);
  }

  market(id: string): MarketBook | undefined {
    return this.books.get(id);
  }

  get markets(): ReadonlyMap<string, MarketBook> {
    return this.books;
  }

  receive(line: string): Decoded {
    const read = readStreamLine(line);
    if ('reason' in read) return { kind: 'invalid', reason: read.reason, marketId: null };
    const message = read.message;
    const op = message['op'];
    if (typeof op !== 'string') return { kind: 'invalid', reason: 'op is missing', marketId: null };
    switch (op) {
      case 'connection':
        return { kind: 'connection', connectionId: typeof message['connectionId'] === 'string' ? message['connectionId'] : null };
      case 'status': {
        const status = readStatus(message);
        return status === null ? { kind: 'invalid', reason: 'status.statusCode is missing', marketId: null } : { kind: 'status', status };
      }
      case 'mcm':
        return this.marketChange(message);
      default:
        return { kind: 'ignored', op };
    }
  }

  private marketChange(message: Json): Decoded {
    const pt = message['pt'];
    const marketId = firstMarketId(message['mc']);
    if (typeof pt !== 'number' || !Number.isFinite(pt)) return { kind: 'invalid', reason: 'pt is not a number', marketId };
    const clocks: Partial<StreamClocks> = {};
    for (const name of ['clk', 'initialClk'] as const) {
      const value = message[name];
      if (value === undefined || value === null) continue;
      if (typeof value !== 'string') return { kind: 'invalid', reason: `${name} is not a string`, marketId };
      clocks[name] = value;
    }
    const ct = message['ct'];
    const changeType: ChangeType = ct === 'SUB_IMAGE' || ct === 'RESUB_DELTA' || ct === 'HEARTBEAT' ? ct : null;
    const mc = message['mc'] ?? [];
    if (!Array.isArray(mc)) return { kind: 'invalid', reason: 'mc is not an array', marketId };
    for (let i = 0; i < mc.length; i++) {
      const problem = marketChangeProblem(mc[i], `mc[${i}]`);
      if (problem !== null) return { kind: 'invalid', reason: problem, marketId };
    }
    const changes = mc as Json[];

    const segment = message['segmentType'];
    if (segment === 'SEG_START') {
      this.pending = { changes: [...changes], clocks };
      return { kind: 'segment' };
    }
    if (segment === 'SEG' || segment === 'SEG_END') {
      if (this.pending === null) return { kind: 'invalid', reason: `${segment} without SEG_START`, marketId };
      this.pending.changes.push(...changes);
      Object.assign(this.pending.clocks, clocks);
      if (segment === 'SEG') return { kind: 'segment' };
      const whole = this.pending;
      this.pending = null;
      return this.apply(whole.changes, whole.clocks, pt, changeType, message['con'] === true);
    }
    if (changeType === 'HEARTBEAT' && changes.length === 0) {
      this.commitClocks(clocks);
      return { kind: 'heartbeat', publishTime: pt };
    }
    return this.apply(changes, clocks, pt, changeType, message['con'] === true);
  }

  private apply(changes: Json[], clocks: Partial<StreamClocks>, publishTime: number, changeType: ChangeType, conflated: boolean): Decoded {
    const marketIds: string[] = [];
    let anyConflated = conflated;
    for (const mc of changes) {
      const id = mc['id'] as string;
      const book = applyMarketChange(this.books.get(id), mc);
      this.books.set(id, book);
      anyConflated ||= book.conflated;
      if (!marketIds.includes(id)) marketIds.push(id);
    }
    this.commitClocks(clocks);
    return { kind: 'changes', marketIds, publishTime, changeType, conflated: anyConflated };
  }

  private commitClocks(clocks: Partial<StreamClocks>): void {
    if (clocks.initialClk !== undefined) this.clocks.initialClk = clocks.initialClk;
    if (clocks.clk !== undefined) this.clocks.clk = clocks.clk;
  }
}
