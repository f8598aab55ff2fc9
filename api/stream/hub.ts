import { randomBytes } from 'node:crypto';
import { settingDefault } from '../../schemas/index.js';
import type { TierName } from '../../schemas/index.js';
import { encode, frameText, render, wsMessage } from './frames.js';
import type { FramePayload, FrameText, Rendered } from './frames.js';
import { SNAPSHOT_TURN_MS } from './progressive.js';
import { frameId } from './frame-id.js';
import { ReplayWindow } from './replay-window.js';
import type { ReplayWindowOptions } from './replay-window.js';

/**
 * What a subscriber asked for, parsed: the board it reads (`feed`), and per channel its parsed
 * filter. Subscribers with the same signature share one group, so a change is matched and
 * serialized once per group, not once per connection.
 */
export interface StreamSpec {
  feed: string;
  tier: TierName;
  /** Channel name -> that channel's parsed filter (odds: OddsFilters; opportunities: the list queries). */
  channels: ReadonlyMap<string, unknown>;
  /** Equal for equal subscriptions (feed, tier and every filter). */
  signature: string;
  /** The US state the rows' deep links carry (REST's `state`); absent: links without one. */
  linkState?: string;
  /**
   * The subscriber's own exchange commission rate, percent (REST's `commission`, or its
   * account's): exchange rows and combinations with exchange legs are priced at it. Absent: the
   * board's rate.
   */
  commission?: number;
}

/** Subscribers sharing one subscription, and what its channels remember for it. */
export class Group {
  readonly members = new Set<StreamConnection>();
  /** Per channel, state a channel keeps for the group (the opportunities it holds, for one). */
  readonly state = new Map<string, unknown>();
  /** Every frame after this sequence number was rendered for the group: resumes from here on are exact. */
  since = 0;
  /** Sequence number at which the last member left; null while it has members. */
  idleAt: number | null = null;
  /**
   * Bumped whenever a frame is rendered for the group: what a new member starts from (the
   * snapshot) changes only then, so members joining at the same version share one snapshot.
   */
  version = 0;
  /** Snapshot work shared by members joining at the same version (see `StreamService.shared`). */
  readonly cache = new Map<string, { version: number; at: number; value: unknown }>();
  constructor(
    readonly spec: StreamSpec,
    /** Its frame ids carry the log position its members stand at (`StreamHubOptions.position`). */
    readonly positional = false,
  ) {}
}

/** One batch of changes a channel hands the hub; it gets `slots` consecutive sequence numbers. */
export interface SourceBatch {
  slots: number;
  data: unknown;
}

/**
 * A channel's source of changes (odds of one board, opportunities; splits and game state plug in
 * the same way). Sources only take note when their board changes and call the hub's `schedule`;
 * the hub takes their batches later, off the board's call stack.
 */
export interface StreamSource {
  readonly channel: string;
  readonly feed: string;
  /** The changes since the last take, as batches, in order. */
  take(now: number): SourceBatch[];
  /** The frames of a batch for a group, each in one of the batch's slots (0-based). */
  render(batch: SourceBatch, group: Group, now: number): { slot: number; payload: FramePayload }[];
  /** A new group starts from the board as it is now. */
  openGroup?(group: Group, now: number): void;
  /** The hub dropped a group (no members left, past the replay window). */
  closeGroup?(group: Group): void;
  /**
   * The groups that can have frames in a batch, when the source can tell without rendering
   * (a batch of one sportsbook's odds reaches only groups that serve it); all of them otherwise.
   */
  audience?(batch: SourceBatch): Iterable<Group>;
  /** Drops what is pending unseen (nobody subscribes): cheaper than taking it. */
  discard(): void;
}

/** The hub's side of a connection (SSE or WebSocket). */
export interface StreamConnection {
  readonly keyId: string;
  /** Streams are counted per account, whichever of its keys opened them. */
  readonly accountId: string;
  /** Writes a frame; a connection whose buffer is full disconnects itself (backpressure). */
  deliver(frame: Rendered, replay: boolean): void;
  /**
   * `logId`: the SSE id naming this sequence number and where every group stands in the log now
   * (a flush just ran), for connections of a group that follows the log; null when the hub follows none.
   */
  heartbeat(seq: number, timestamp: string, logId: string | null): void;
  /** Ends the connection (server shutdown). */
  end(): void;
}

export interface StreamHubOptions {
  window: ReplayWindowOptions;
  heartbeatMs: number;
  /** The data clock, for frame timestamps and presenters. */
  now: () => number;
  /** Concurrent streams (SSE and WebSocket together) one account may hold. */
  maxStreams: (tier: TierName, accountId: string) => number;
  /**
   * Where the boards stand in the log now, encoded (`encodePosition`), and the subscriptions
   * whose state is a function of it: their SSE frame ids name it, so another replica (or this one
   * after a restart) can bring a client back from there. Absent: ids are sequence numbers only.
   */
  position?: { now: () => string; covers: (spec: StreamSpec) => boolean };
}

export const DEFAULT_STREAM_OPTIONS = {
  replayFrames: settingDefault('STREAM_REPLAY_FRAMES'),
  replayMs: settingDefault('STREAM_REPLAY_SECONDS') * 1000,
  replayBytes: settingDefault('STREAM_REPLAY_MB') * 1024 * 1024,
  bufferBytes: settingDefault('STREAM_BUFFER_KB') * 1024,
  heartbeatMs: settingDefault('STREAM_HEARTBEAT_SECONDS') * 1000,
  snapshotTurnMs: SNAPSHOT_TURN_MS,
} as const;

/**
 * Fans changes out to stream subscribers. Boards notify synchronously; sources only queue and
 * `schedule()` a flush on the next turn of the event loop, so no socket is written inside the
 * pipeline's call stack and a slow socket (whose writes only buffer, up to its bound) never
 * slows the consumer. A flush takes every source's batches, gives each a sequence number per
 * slot, renders each batch once per group subscribed to that feed and channel (an index, not a
 * loop over connections), records the rendered frames in the replay window and hands the same
 * bytes to every member of the group.
 */
export class StreamHub {
  private seq: number;
  readonly window: ReplayWindow<Group>;
  private readonly sources: StreamSource[] = [];
  private readonly groups = new Map<string, Group>();
  /** `${feed}|${channel}` -> groups subscribed to it. */
  private readonly index = new Map<string, Set<Group>>();
  private readonly streamsPerAccount = new Map<string, number>();
  private readonly connections = new Set<StreamConnection>();
  private scheduled = false;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Frames handed to connections since start (for the bench and metrics). */
  delivered = 0;
  /** Names this run of this hub in frame ids: a sequence number means something only to the run that gave it. */
  readonly run = randomBytes(6).toString('base64url');
  /** Where every group stood in the log after the last flush (positional groups only). */
  private position: string | null = null;

  constructor(readonly options: StreamHubOptions) {
    // Sequence numbers start at the wall time in microseconds, so a number handed out by an
    // earlier process is never mistaken for one of this process: it is below this window's floor.
    this.seq = Date.now() * 1000;
    this.window = new ReplayWindow<Group>(this.seq, options.window);
    this.position = options.position?.now() ?? null;
    if (options.heartbeatMs > 0) {
      this.timer = setInterval(() => this.heartbeat(), options.heartbeatMs);
      this.timer.unref();
    }
  }

  /** The last sequence number handed out. */
  get head(): number {
    return this.seq;
  }

  addSource(source: StreamSource): void {
    this.sources.push(source);
  }

  /** Called by sources when they have something; the flush runs on the next turn. */
  readonly schedule = (): void => {
    if (this.scheduled || this.closed) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  };

  /** Delivers everything the sources hold now. Also called before a subscriber reads a snapshot. */
  flush(): void {
    const now = this.options.now();
    const timestamp = new Date(now).toISOString();
    // The boards do not move during a flush: after it, every group stands at this position.
    const before = this.position;
    const after = this.options.position?.now() ?? null;
    const rendered: { seq: number; frames: Map<Group, FramePayload> | null }[] = [];
    for (const source of this.sources) {
      const groups = this.index.get(`${source.feed}|${source.channel}`);
      // Nobody subscribed (nor lingering to resume): nothing to render, no sequence numbers used.
      if (!groups || groups.size === 0) {
        source.discard();
        continue;
      }
      for (const batch of source.take(now)) {
        const first = this.seq + 1;
        this.seq += batch.slots;
        const bySlot: (Map<Group, FramePayload> | null)[] = new Array<Map<Group, FramePayload> | null>(batch.slots).fill(null);
        for (const group of source.audience?.(batch) ?? groups) {
          for (const { slot, payload } of source.render(batch, group, now)) {
            group.version++;
            // What was shared is stale now; drop it rather than hold it until the next join.
            if (group.cache.size > 0) group.cache.clear();
            let frames = bySlot[slot];
            if (!frames) {
              frames = new Map();
              bySlot[slot] = frames;
            }
            frames.set(group, payload);
          }
        }
        for (let slot = 0; slot < batch.slots; slot++) rendered.push({ seq: first + slot, frames: bySlot[slot] ?? null });
      }
    }
    // A group's last frame of the flush names the position after it; its earlier ones the
    // position before it, so a client cut off in between gets the whole flush's rows again.
    const last = new Map<Group, number>();
    if (after !== null) for (const { seq, frames } of rendered) for (const g of frames?.keys() ?? []) if (g.positional) last.set(g, seq);
    // Slots go out in order, so every connection sees increasing sequence numbers.
    for (const { seq, frames } of rendered) {
      let texts: Map<Group, FrameText> | null = null;
      if (frames) {
        texts = new Map();
        for (const [group, payload] of frames) {
          const at = group.positional ? (last.get(group) === seq ? after : before) : null;
          texts.set(group, frameText(this.frameId(seq, at), seq, payload, timestamp));
        }
      }
      this.window.append(seq, texts);
      for (const [group, text] of texts ?? []) {
        const frame = encode(text);
        for (const c of group.members) {
          this.delivered++;
          c.deliver(frame, false);
        }
      }
    }
    this.position = after;
    this.sweep();
  }

  /** A frame's SSE id (`frame-id.ts`): `position` names where its group stands in the log, when it follows one. */
  frameId(seq: number, position: string | null): string {
    return frameId(seq, this.run, position);
  }

  /** Where every group stands in the log now (call `flush()` first); null when the hub follows none. */
  get logPosition(): string | null {
    return this.position;
  }

  /** The group for a subscription, made (from the boards as they are now) when new. Call `flush()` first. */
  group(spec: StreamSpec): Group {
    let g = this.groups.get(spec.signature);
    if (g) return g;
    g = new Group(spec, this.options.position?.covers(spec) ?? false);
    g.since = this.seq;
    for (const source of this.sourcesOf(spec)) source.openGroup?.(g, this.options.now());
    for (const channel of spec.channels.keys()) {
      const key = `${spec.feed}|${channel}`;
      let set = this.index.get(key);
      if (!set) {
        set = new Set();
        this.index.set(key, set);
      }
      set.add(g);
    }
    this.groups.set(spec.signature, g);
    return g;
  }

  /** True when a subscriber of `group` that last saw `seq` can be sent exactly what it missed. */
  canResume(group: Group, seq: number): boolean {
    return seq >= this.window.floor && seq >= group.since && seq <= this.seq;
  }

  /** Sends `conn` the frames of its group after `seq` (check `canResume` first). */
  replay(conn: StreamConnection, group: Group, seq: number): number {
    let n = 0;
    this.window.forEachAfter(seq, group, (_s, frame) => {
      n++;
      conn.deliver(frame, true);
    });
    return n;
  }

  join(conn: StreamConnection, group: Group): void {
    group.members.add(conn);
    group.idleAt = null;
    this.connections.add(conn);
  }

  leave(conn: StreamConnection, group: Group | null): void {
    if (group) {
      group.members.delete(conn);
      if (group.members.size === 0) group.idleAt = this.seq;
    }
  }

  /**
   * Counts a new stream of an account against its tier's limit; false when the limit is
   * reached. Per account, not per key: another key (created, or a rotation's successor) adds no
   * streams.
   */
  acquire(accountId: string, tier: TierName): boolean {
    const n = this.streamsPerAccount.get(accountId) ?? 0;
    if (n >= this.streamCap(tier, accountId)) return false;
    this.streamsPerAccount.set(accountId, n + 1);
    return true;
  }

  /** How many concurrent streams the account may hold (its tier's, unless the settings say otherwise). */
  streamCap(tier: TierName, accountId: string): number {
    return this.options.maxStreams(tier, accountId);
  }

  release(conn: StreamConnection): void {
    if (!this.connections.delete(conn)) return;
    const n = (this.streamsPerAccount.get(conn.accountId) ?? 1) - 1;
    if (n <= 0) this.streamsPerAccount.delete(conn.accountId);
    else this.streamsPerAccount.set(conn.accountId, n);
  }

  /** Registers a connection that holds a stream slot (acquired) before it joins a group. */
  track(conn: StreamConnection): void {
    this.connections.add(conn);
  }

  /** Streams (SSE and WebSocket) the account's keys hold open on this replica. */
  openStreams(accountId: string): number {
    return this.streamsPerAccount.get(accountId) ?? 0;
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  get groupCount(): number {
    return this.groups.size;
  }

  /** A frame outside the sequence (connected, snapshot, subscribed...), rendered for one connection. */
  renderOne(id: string, payload: FramePayload): Rendered {
    return render(id, this.seq, payload, new Date(this.options.now()).toISOString());
  }

  private heartbeat(): void {
    this.flush();
    // Shared snapshots outlive their use by at most a heartbeat, even in a group no frame reaches.
    for (const g of this.groups.values()) g.cache.clear();
    const ts = new Date(this.options.now()).toISOString();
    const logId = this.position === null ? null : this.frameId(this.seq, this.position);
    for (const c of this.connections) c.heartbeat(this.seq, ts, logId);
  }

  /** The sources whose changes a subscription reads (its feed, one of its channels). */
  private sourcesOf(spec: StreamSpec): StreamSource[] {
    return this.sources.filter((source) => source.feed === spec.feed && spec.channels.has(source.channel));
  }

  /**
   * A group without members is kept while the window still holds frames from its last
   * member's time, so that member can resume exactly; then it goes.
   */
  private sweep(): void {
    for (const [signature, g] of this.groups) {
      if (g.idleAt === null || g.idleAt >= this.window.floor) continue;
      this.groups.delete(signature);
      for (const channel of g.spec.channels.keys()) this.index.get(`${g.spec.feed}|${channel}`)?.delete(g);
      for (const source of this.sourcesOf(g.spec)) source.closeGroup?.(g);
    }
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const c of [...this.connections]) c.end();
    this.connections.clear();
    this.streamsPerAccount.clear();
  }
}

export { wsMessage };
