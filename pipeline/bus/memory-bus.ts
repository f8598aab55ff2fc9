import { randomBytes } from 'node:crypto';
import { TOPIC_CONFIGS } from '../../schemas/index.js';
import type { TopicConfig, TopicName, TopicValues } from '../../schemas/index.js';
import type { Bus, BusRecord, Consumer, ConsumerOptions, OutgoingRecord, Producer, ReadScope, RecordBatch } from './bus.js';
import { topicsOf } from './bus.js';
import { partitionFor } from './partitioner.js';
import { NO_BATCH, assertHeld } from './batch-ownership.js';
import type { PartitionHold } from './batch-ownership.js';

export interface MemoryBusOptions {
  /**
   * A producer waits while the slowest consumer group is more than this many records behind on
   * a partition: the bound that keeps a fast feed from filling memory.
   */
  highWaterMark?: number;
  now?: () => number;
  topics?: Partial<Record<TopicName, TopicConfig>>;
  /** A log an earlier run left (`MemoryBus.image`): offsets, records and committed groups continue from it. */
  image?: MemoryBusImage;
  /**
   * Removals the compacted state lets go of once they are this old. Without it a compacted topic
   * keeps a record for every key that ever was, so memory grows with the churn of keys for the
   * whole run, not with what is current.
   */
  removalRetention?: RemovalRetention;
}

/**
 * The in-process bus's producer: one member per group owns every partition here, so no batch of
 * this bus is ever handed to another member, and a send that names no hold is written as no
 * batch's (`NO_BATCH`). Code that writes through the `Producer` port still names one.
 */
export interface InProcessProducer extends Producer {
  send<T extends TopicName>(topic: T, records: readonly OutgoingRecord<T>[], hold?: PartitionHold): Promise<void>;
}

/** Told of the records a producer of this bus appended, one call per partition of a send, in offset order. */
export type AppendListener = (topic: TopicName, partition: number, records: readonly StoredRecord[]) => void;

/** The offsets a committing group holds on one topic (what `MemoryBus.adoptCommits` takes). */
export interface GroupCommit {
  topic: TopicName;
  groupId: string;
  offsets: number[];
}

/** Which records say a key is gone (a value of their own, not a tombstone), and how long the compacted state keeps them. */
export interface RemovalRetention {
  afterMs: number;
  isRemoval: (topic: TopicName, value: unknown) => boolean;
}

/**
 * A memory bus's log as plain data: per topic and partition the first offset still held, the
 * records from there, the latest record per key of the trimmed ones (compacted topics), and the
 * offset from which every key's latest change is still there (`floor`); the offsets committed by
 * the groups that commit. `name` names the log (see `MemoryBus.name`).
 */
export interface MemoryBusImage {
  version: 1;
  name: string;
  topics: Partial<
    Record<
      TopicName,
      {
        partitions: { base: number; floor: number; log: StoredRecord[]; compacted: StoredRecord[] }[];
        groups: Record<string, number[]>;
      }
    >
  >;
}

/** What `MemoryBus.image` leaves out: records that say a key is gone, older than a time (their key's history ends there). */
export interface ForgetRemovals {
  before: number;
  isRemoval: (topic: TopicName, value: unknown) => boolean;
}

/** Untyped storage: the typed surface is in Bus; inside, a topic is just records. */
export interface StoredRecord {
  offset: number;
  key: string;
  value: unknown;
  timestamp: number;
}

class Partition {
  /** Records from `baseOffset` on; older ones were trimmed (and folded into `compacted`). */
  log: StoredRecord[] = [];
  baseOffset = 0;
  /** Reads from this offset on return the latest change of every key changed since; older removals may be forgotten. */
  floor = 0;
  /** Latest record per key among trimmed ones, for compacted topics. */
  readonly compacted: Map<string, StoredRecord> | null;
  /** Removals folded into `compacted`, oldest first from `removalsHead`: the next to forget. */
  private removals: StoredRecord[] = [];
  private removalsHead = 0;
  constructor(
    compacted: boolean,
    private readonly isRemoval: ((value: unknown) => boolean) | null = null,
  ) {
    this.compacted = compacted ? new Map() : null;
  }
  /** Makes `r` its key's latest in the compacted state (a tombstone drops the key). */
  keepLatest(r: StoredRecord): void {
    if (!this.compacted) return;
    if (r.value === null) {
      this.compacted.delete(r.key);
      return;
    }
    this.compacted.set(r.key, r);
    if (this.isRemoval?.(r.value)) this.removals.push(r);
  }
  /**
   * Lets go of removals stamped before `time` that are still their key's latest, and raises the
   * floor past each: a read from before it no longer sees every key's latest change.
   */
  forgetRemovalsBefore(time: number): void {
    let head = this.removalsHead;
    while (head < this.removals.length) {
      const r = this.removals[head] as StoredRecord;
      if (r.timestamp >= time) break;
      head++;
      if (this.compacted?.get(r.key) !== r) continue;
      this.compacted.delete(r.key);
      this.floor = Math.max(this.floor, r.offset + 1);
    }
    this.removalsHead = head;
    // Drop the forgotten prefix once it is most of the array, so the queue costs O(1) per removal.
    if (head > 1024 && head * 2 > this.removals.length) {
      this.removals = this.removals.slice(head);
      this.removalsHead = 0;
    }
  }
  get endOffset(): number {
    return this.baseOffset + this.log.length;
  }
  append(key: string, value: unknown, timestamp: number): void {
    this.log.push({ offset: this.endOffset, key, value, timestamp });
  }
  /** Drops records below `offset`, keeping the latest per key when compacted. */
  trimTo(offset: number): void {
    const n = Math.min(offset, this.endOffset) - this.baseOffset;
    if (n <= 0) return;
    if (this.compacted) {
      for (let i = 0; i < n; i++) {
        const r = this.log[i];
        if (r) this.keepLatest(r);
      }
    }
    this.log = this.log.slice(n);
    this.baseOffset += n;
  }
  /** Records from `position` on, at most `max`: compacted history first for a late joiner. */
  read(position: number, max: number): StoredRecord[] {
    if (position < this.baseOffset && this.compacted) {
      const older = [...this.compacted.values()].filter((r) => r.offset >= position).sort((a, b) => a.offset - b.offset);
      if (older.length > 0) return older.slice(0, max);
    }
    const start = Math.max(position, this.baseOffset) - this.baseOffset;
    return this.log.slice(start, start + max);
  }
}

class Topic {
  readonly partitions: Partition[];
  /** groupId -> committed offset per partition. */
  readonly groups = new Map<string, number[]>();
  /** Offsets an earlier run's groups committed (`MemoryBusImage`), until a consumer of the group starts. */
  readonly dormant = new Map<string, number[]>();
  constructor(
    readonly config: TopicConfig,
    isRemoval: ((value: unknown) => boolean) | null,
  ) {
    this.partitions = Array.from({ length: config.partitions }, () => new Partition(config.compacted, isRemoval));
  }
  minCommitted(partition: number): number {
    let min = Number.POSITIVE_INFINITY;
    for (const offsets of this.groups.values()) min = Math.min(min, offsets[partition] ?? 0);
    return min;
  }
}

/**
 * The in-process bus shares its event loop with the rest of the process (in ROLE=all, the API
 * and its streams), so its consumers take turns instead of chaining one stage into the next on
 * one call stack: a consumer's round (a batch from each ready partition, for at most
 * `ROUND_BUDGET_MS`) starts in its own event-loop turn (setImmediate), one round at a time, the
 * highest priority first (`prioritize`; a consumer gains a level for every `AGING_MS` it
 * waits) and in arrival order within one. The next round is queued only once this one ended,
 * so whatever a round queued (the stream hub's flush of the changes a view just applied) goes
 * first, and sockets are served between rounds. A round whose handler waits for I/O (a store
 * insert, a producer held by the high-water mark) gives its turn up at the next turn of the loop.
 */
const ROUND_BUDGET_MS = 4;

/**
 * A waiting consumer gains one priority level per this much waiting, so under sustained overload
 * the low-priority stages still get turns (else their lag would reach the high-water mark and
 * stall every producer upstream of them).
 */
const AGING_MS = 250;

class Turns {
  private readonly waiting: { priority: number; since: number; start: () => void }[] = [];
  private busy = false;
  private queued = false;

  /** Resolves when it is the caller's turn, with the function that ends it (call it once done). */
  take(priority: number): Promise<() => void> {
    return new Promise((resolve) => {
      this.waiting.push({ priority, since: performance.now(), start: () => resolve(this.hold()) });
      this.next();
    });
  }

  private hold(): () => void {
    let held = true;
    const release = (): void => {
      if (!held) return;
      held = false;
      clearImmediate(giveUp);
      this.busy = false;
      this.next();
    };
    // Queued before anything the round queues: still running by then means waiting for I/O.
    const giveUp = setImmediate(release);
    return release;
  }

  private next(): void {
    if (this.busy || this.queued || this.waiting.length === 0) return;
    this.queued = true;
    setImmediate(() => {
      this.queued = false;
      const now = performance.now();
      const rank = (w: { priority: number; since: number }): number => w.priority + Math.floor((now - w.since) / AGING_MS);
      let best = 0;
      for (let i = 1; i < this.waiting.length; i++) {
        if (rank(this.waiting[i] as { priority: number; since: number }) > rank(this.waiting[best] as { priority: number; since: number }))
          best = i;
      }
      const [turn] = this.waiting.splice(best, 1);
      if (!turn) return;
      this.busy = true;
      turn.start();
    });
  }
}

/**
 * The embedded log: Kafka's topic/key/partition/offset semantics in process, so that the
 * processors and their runner behave the same on it as on Kafka. Records are kept until every
 * consumer group has committed past them (and, for compacted topics, the latest per key, a
 * removal only for `removalRetention`), so memory is bounded by consumer lag, which the
 * producer's high-water mark bounds, and by the keys that are current.
 */
export class MemoryBus implements Bus {
  /**
   * Names this log: offsets count in it. A new bus is a log of its own; one restored from an
   * image continues that image's log, and so keeps its name.
   */
  readonly name: string;
  /** Continues an earlier run's log (made from an image). */
  readonly restored: boolean;
  private readonly topics = new Map<TopicName, Topic>();
  /** Groups that never commit (views rebuilt at every start): an image leaves them out. */
  private readonly transient = new Set<string>();
  private readonly highWaterMark: number;
  private readonly now: () => number;
  private readonly configs: Record<TopicName, TopicConfig>;
  private readonly removalRetention: RemovalRetention | null;
  private readonly turns = new Turns();
  private priority: (groupId: string) => number = () => 0;
  private appended: AppendListener | null = null;
  private unwatched: ReadonlySet<TopicName> = new Set();
  /** Records the copy fed by `appended` has not applied yet, as last told (`copyBehind`), and how many it may lag. */
  private behindInCopy = 0;
  private copyHighWaterMark = Number.POSITIVE_INFINITY;
  /** Woken whenever records are appended or committed. */
  private waiters: (() => void)[] = [];
  private closed = false;

  constructor(options: MemoryBusOptions = {}) {
    this.highWaterMark = options.highWaterMark ?? 100_000;
    this.now = options.now ?? Date.now;
    this.configs = { ...TOPIC_CONFIGS, ...options.topics };
    this.removalRetention = options.removalRetention ?? null;
    this.name = options.image?.name ?? `memory-${randomBytes(6).toString('base64url')}`;
    this.restored = options.image !== undefined;
    if (options.image) this.restore(options.image);
  }

  /** The log as plain data, to start a later run from; removals `forget` names are left out (and the floor raised past them). */
  image(forget?: ForgetRemovals): MemoryBusImage {
    const topics: MemoryBusImage['topics'] = {};
    for (const [name, topic] of this.topics) {
      const groups: Record<string, number[]> = {};
      for (const [id, offsets] of topic.groups) if (!this.transient.has(id)) groups[id] = [...offsets];
      const partitions = topic.partitions.map((p) => {
        let floor = p.floor;
        const compacted: StoredRecord[] = [];
        for (const r of p.compacted?.values() ?? []) {
          if (forget && r.timestamp < forget.before && forget.isRemoval(name, r.value)) floor = Math.max(floor, r.offset + 1);
          else compacted.push(r);
        }
        return { base: p.baseOffset, floor, log: p.log, compacted: compacted.sort((a, b) => a.offset - b.offset) };
      });
      topics[name] = { partitions, groups };
    }
    return { version: 1, name: this.name, topics };
  }

  private restore(image: MemoryBusImage): void {
    for (const [name, saved] of Object.entries(image.topics) as [TopicName, NonNullable<MemoryBusImage['topics'][TopicName]>][]) {
      if (!(name in this.configs)) continue;
      const topic = this.topic(name);
      saved.partitions.forEach((s, i) => {
        const p = topic.partitions[i];
        if (!p) return;
        p.baseOffset = s.base;
        p.floor = s.floor;
        p.log = s.log;
        for (const r of s.compacted) p.keepLatest(r);
      });
      // Waiting for a consumer of this run to claim them: a group gone from this run holds no records back.
      for (const [id, offsets] of Object.entries(saved.groups)) topic.dormant.set(id, offsets);
    }
  }

  /** Per partition of `topic`, the earliest offset a read still returns every key's latest change from (`MemoryBusImage` floor). */
  completeFrom(topic: TopicName): number[] {
    return this.topic(topic).partitions.map((p) => p.floor);
  }

  /**
   * Which consumer groups go first when several have records ready (higher first; default 0 for
   * all). Set before the consumers are made: ROLE=all runs the stages a tick crosses on its way
   * to the API's boards ahead of the heavier ones that read the same topics.
   */
  prioritize(priority: (groupId: string) => number): void {
    this.priority = priority;
  }

  private topic(name: TopicName): Topic {
    let t = this.topics.get(name);
    if (!t) {
      const retention = this.removalRetention;
      t = new Topic(this.configs[name], retention ? (value) => retention.isRemoval(name, value) : null);
      this.topics.set(name, t);
    }
    return t;
  }

  /**
   * Hands `listener` every record a producer of this bus appends, before anything else runs: how
   * a pipeline in a worker thread passes the records of the topics the API thread reads to that
   * thread's copy of the log (`replicate`), at the same offsets. Sends to the topics in `except`
   * are not looked at (no copy of their new records is made: the raw and normalized ticks).
   * The copy's readers count as this log's consumers: while the copy is more than
   * `copyHighWaterMark` records behind (`copyBehind`), producers wait as they do for a slow group
   * here, so a stalled reader over there holds the feed back instead of letting the copy grow.
   */
  watchAppends(listener: AppendListener, except: ReadonlySet<TopicName> = new Set(), copyHighWaterMark = Number.POSITIVE_INFINITY): void {
    this.appended = listener;
    this.unwatched = except;
    this.copyHighWaterMark = copyHighWaterMark;
  }

  /** How many records the copy (`watchAppends`) has yet to apply: on their way to it, or there and not read by all its groups. */
  copyBehind(records: number): void {
    this.behindInCopy = records;
    if (records <= this.copyHighWaterMark) this.wake();
  }

  /** Records appended here and not yet read by every group (per partition from the slowest group's position), summed over topics. */
  backlog(): number {
    let total = 0;
    for (const topic of this.topics.values()) {
      if (topic.groups.size === 0) continue;
      topic.partitions.forEach((p, i) => {
        total += Math.max(0, p.endOffset - topic.minCommitted(i));
      });
    }
    return total;
  }

  private tellAppended(name: TopicName, topic: Topic, ends: readonly number[]): void {
    topic.partitions.forEach((p, i) => {
      const from = ends[i] ?? p.endOffset;
      if (p.endOffset > from) this.appended?.(name, i, p.log.slice(from - p.baseOffset));
    });
  }

  /**
   * Appends records another bus appended first, at the offsets they have there: this bus is then
   * a copy of that log for `topic`, so the positions its readers report name the same records.
   * A gap or an overlap means the copy is no longer the same log: it throws.
   */
  replicate(name: TopicName, partition: number, records: readonly StoredRecord[]): void {
    const topic = this.topic(name);
    const p = topic.partitions[partition];
    if (!p) throw new Error(`${name} has no partition ${partition}`);
    for (const r of records) {
      if (r.offset !== p.endOffset)
        throw new Error(`${name}/${partition}: record at offset ${r.offset} replicated onto a log ending at ${p.endOffset}`);
      p.log.push(r);
    }
    if (topic.groups.size === 0) this.trim(p, p.endOffset);
    this.wake();
  }

  /** The offsets this bus's committing groups hold, to be kept by the bus that saves the log (`adoptCommits`). */
  commits(): GroupCommit[] {
    const out: GroupCommit[] = [];
    for (const [name, topic] of this.topics)
      for (const [groupId, offsets] of topic.groups)
        if (!this.transient.has(groupId)) out.push({ topic: name, groupId, offsets: [...offsets] });
    return out;
  }

  /**
   * Keeps offsets committed on another copy of this log, so an image of this one carries them
   * (called as the log is about to be saved: the groups now hold records back here too).
   */
  adoptCommits(commits: readonly GroupCommit[]): void {
    for (const c of commits) this.topic(c.topic).groups.set(c.groupId, [...c.offsets]);
  }

  /** Drops what every group has read (folding it into the compacted state) and forgets removals past the retention. */
  private trim(p: Partition, offset: number): void {
    p.trimTo(offset);
    if (this.removalRetention) p.forgetRemovalsBefore(this.now() - this.removalRetention.afterMs);
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  private waitForChange(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private maxLag(topic: Topic): number {
    if (topic.groups.size === 0) return 0;
    let max = 0;
    topic.partitions.forEach((p, i) => {
      max = Math.max(max, p.endOffset - topic.minCommitted(i));
    });
    return max;
  }

  producer(): InProcessProducer {
    return {
      send: async <T extends TopicName>(name: T, records: readonly OutgoingRecord<T>[], hold: PartitionHold = NO_BATCH) => {
        const topic = this.topic(name);
        while (!this.closed && (this.maxLag(topic) > this.highWaterMark || this.behindInCopy > this.copyHighWaterMark))
          await this.waitForChange();
        if (this.closed) throw new Error(`bus closed: cannot send to ${name}`);
        // After the wait for readers, as the Kafka bus asks right before its records leave.
        assertHeld(hold);
        const ts = this.now();
        const n = topic.partitions.length;
        const ends = this.appended && !this.unwatched.has(name) ? topic.partitions.map((p) => p.endOffset) : null;
        for (const r of records) {
          const p = topic.partitions[partitionFor(r.partitionKey ?? r.key, n)];
          p?.append(r.key, r.value, r.timestamp ?? ts);
        }
        if (ends) this.tellAppended(name, topic, ends);
        // With no consumer group, nothing will ever read the log: keep only compacted state.
        if (topic.groups.size === 0) for (const p of topic.partitions) this.trim(p, p.endOffset);
        this.wake();
      },
    };
  }

  async readToEnd<T extends TopicName>(name: T, handle: (records: readonly BusRecord<T>[]) => void, scope: ReadScope = {}): Promise<void> {
    const topic = this.topic(name);
    topic.partitions.forEach((p, partition) => {
      if (scope.partitions && !scope.partitions.includes(partition)) return;
      const end = Math.min(p.endOffset, scope.before?.(partition) ?? Number.POSITIVE_INFINITY);
      let position = scope.from?.(partition) ?? 0;
      while (position < end) {
        const stored = p.read(position, 10_000).filter((r) => r.offset < end);
        const last = stored[stored.length - 1];
        if (!last) break;
        handle(
          stored.map((r) => ({
            topic: name,
            partition,
            offset: r.offset,
            key: r.key,
            value: r.value as TopicValues[T] | null,
            timestamp: r.timestamp,
          })),
        );
        position = last.offset + 1;
      }
    });
  }

  consumer<T extends TopicName>(options: ConsumerOptions<T>): Consumer<T> {
    // One member per group in process: it owns every partition of every topic it reads.
    const sources = topicsOf(options).map((name) => {
      const topic = this.topic(name);
      if (options.commit === false) this.transient.add(options.groupId);
      let offsets = topic.groups.get(options.groupId) ?? topic.dormant.get(options.groupId);
      topic.dormant.delete(options.groupId);
      if (offsets) topic.groups.set(options.groupId, offsets);
      else {
        offsets = topic.partitions.map((p) => (options.fromBeginning ? (p.compacted ? 0 : p.baseOffset) : p.endOffset));
        topic.groups.set(options.groupId, offsets);
      }
      // Batching is about real elapsed time, not the (possibly replayed) clock of the data.
      return { name, topic, committed: offsets, lastDelivery: topic.partitions.map(() => Date.now()) };
    });
    const partitions = Array.from({ length: Math.max(...sources.map((s) => s.topic.partitions.length)) }, (_, i) => i);
    const maxBatch = options.maxBatchSize ?? 5000;
    const minBatch = options.minBatchSize ?? 1;
    const maxWait = options.maxWaitMs ?? 0;
    const priority = this.priority(options.groupId);
    let running = false;
    let stopped = false;
    let resolveDone: () => void = () => {};
    let rejectDone: (e: unknown) => void = () => {};
    const done = new Promise<void>((res, rej) => {
      resolveDone = res;
      rejectDone = rej;
    });

    type Source = (typeof sources)[number];
    /** One partition: records to deliver now, a small batch held back for `maxWaitMs`, or nothing. */
    const partitionState = ({ topic, committed, lastDelivery }: Source, i: number): 'ready' | 'holding' | 'idle' => {
      const p = topic.partitions[i];
      const pending = p ? p.endOffset - (committed[i] ?? 0) : 0;
      if (pending <= 0) return 'idle';
      return pending < minBatch && Date.now() - (lastDelivery[i] ?? 0) < maxWait ? 'holding' : 'ready';
    };

    /** Whether a round would deliver now; else whether a small batch is held back. */
    const readiness = (): 'ready' | 'holding' | 'idle' => {
      let holding = false;
      for (const source of sources) {
        for (let i = 0; i < source.topic.partitions.length; i++) {
          const state = partitionState(source, i);
          if (state === 'ready') return 'ready';
          if (state === 'holding') holding = true;
        }
      }
      return holding ? 'holding' : 'idle';
    };

    /** Every topic-partition of the consumer; rounds start where the previous one stopped. */
    const slots = sources.flatMap((source) => source.topic.partitions.map((_, i) => ({ source, i })));
    let cursor = 0;
    /**
     * One batch per ready partition of every topic until the round has taken `ROUND_BUDGET_MS`:
     * the rest waits for the consumer's next turn, so a heavy stage's round holds the event loop
     * for about one batch.
     */
    const round = async (handler: (batch: RecordBatch<T>) => Promise<void>): Promise<void> => {
      const started = performance.now();
      for (let n = 0; n < slots.length; n++) {
        const slot = slots[(cursor + n) % slots.length];
        if (!slot || stopped) continue;
        if (performance.now() - started >= ROUND_BUDGET_MS) {
          cursor = (cursor + n) % slots.length;
          return;
        }
        const { source, i } = slot;
        const { name, topic, committed, lastDelivery } = source;
        const p = topic.partitions[i];
        if (!p || partitionState(source, i) !== 'ready') continue;
        const position = committed[i] ?? 0;
        const stored = p.read(position, maxBatch);
        if (stored.length === 0) continue;
        lastDelivery[i] = Date.now();
        const records: BusRecord<T>[] = stored.map((r) => ({
          topic: name,
          partition: i,
          offset: r.offset,
          key: r.key,
          value: r.value as TopicValues[T] | null,
          timestamp: r.timestamp,
        }));
        await handler({ topic: name, partition: i, records, hold: NO_BATCH });
        const last = stored[stored.length - 1];
        committed[i] = (last?.offset ?? position) + 1;
        this.trim(p, topic.minCommitted(i));
        this.wake();
      }
    };

    const loop = async (handler: (batch: RecordBatch<T>) => Promise<void>): Promise<void> => {
      if (options.onAssign) {
        const committed = new Map(sources.map((s) => [s.name as TopicName, s.committed]));
        await options.onAssign(partitions, (topic, partition) => committed.get(topic)?.[partition] ?? 0);
      }
      while (!stopped && !this.closed) {
        const state = readiness();
        if (state !== 'ready') {
          await (state === 'holding' ? Promise.race([this.waitForChange(), sleep(maxWait)]) : this.waitForChange());
          continue;
        }
        const release = await this.turns.take(priority);
        try {
          await round(handler);
        } finally {
          release();
        }
      }
    };

    return {
      done,
      assignment: () => (stopped ? [] : partitions),
      run: (handler) => {
        if (running) throw new Error(`consumer ${options.groupId} is already running`);
        running = true;
        loop(handler).then(resolveDone, (e: unknown) => {
          stopped = true;
          rejectDone(e);
        });
      },
      stop: async () => {
        stopped = true;
        this.wake();
        if (running) await done.catch(() => undefined);
      },
      lag: () =>
        sources.reduce(
          (total, { topic, committed }) => total + topic.partitions.reduce((sum, p, i) => sum + (p.endOffset - (committed[i] ?? 0)), 0),
          0,
        ),
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wake();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
