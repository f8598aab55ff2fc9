import { randomBytes } from 'node:crypto';
import { TOPICS } from '../../schemas/index.js';
import type { TopicName } from '../../schemas/index.js';
import { compareLogTime } from '../views/index.js';
import type { LogTime } from '../views/index.js';
import type { ChangelogReader } from './lost-removals.js';

/**
 * The changelogs whose records change what `/odds/delta` answers (odds rows, and events, whose
 * status moves rows in and out of the `live` filter), in the order a position lists them.
 */
export const DELTA_TOPICS: readonly TopicName[] = [TOPICS.snapshot, TOPICS.events];

/**
 * A place in the log: per changelog topic (in `DELTA_TOPICS` order), per partition, the next
 * offset to read. It means the same on every replica reading the same log, and after a restart.
 */
export type Offsets = readonly (readonly number[])[];

/**
 * What a delta `cursor` carries. `log` names the log the offsets belong to (a Kafka cluster, or
 * one run of the in-process bus), so offsets of another log are never taken for ours. `at` is a
 * shortcut for the replica that issued it: the exact change-log time, valid only on the board
 * (`board`: the replica's run, and the tier's feed) that stamped it.
 */
export interface LogPosition {
  log: string;
  offsets: Offsets;
  at: { board: string; time: LogTime } | null;
}

const POSITION_VERSION = 1;
/** Bounds a decoded position, so a forged one costs no more than a real one. */
const MAX_PARTITIONS = 1024;
const MAX_TEXT = 64 * 1024;

export function encodePosition(p: LogPosition): string {
  const at = p.at ? [p.at.board, p.at.time.ms, p.at.time.sub] : [];
  return Buffer.from(JSON.stringify([POSITION_VERSION, p.log, p.offsets, ...at])).toString('base64url');
}

const isOffset = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;

/** Null for anything that is not a position this service made (any text at all may come in). */
export function decodePosition(text: string): LogPosition | null {
  if (text.length === 0 || text.length > MAX_TEXT || !/^[A-Za-z0-9_-]+$/.test(text)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || (parsed.length !== 3 && parsed.length !== 6)) return null;
  const [version, log, offsets, board, ms, sub] = parsed as unknown[];
  if (version !== POSITION_VERSION || typeof log !== 'string') return null;
  if (!Array.isArray(offsets) || offsets.length !== DELTA_TOPICS.length) return null;
  for (const topic of offsets as unknown[]) {
    if (!Array.isArray(topic) || topic.length > MAX_PARTITIONS || !topic.every(isOffset)) return null;
  }
  if (parsed.length === 3) return { log, offsets: offsets as number[][], at: null };
  if (typeof board !== 'string' || !isOffset(ms) || !isOffset(sub)) return null;
  return { log, offsets: offsets as number[][], at: { board, time: { ms, sub } } };
}

/** True when every partition of `a` is at or before the same partition of `b` (a missing one is at 0). */
export function atOrBefore(a: Offsets, b: Offsets): boolean {
  return a.every((topic, t) => topic.every((offset, p) => offset <= (b[t]?.[p] ?? 0)));
}

/** The change log a trail follows: its head, and the oldest time it still answers from. */
export interface TrailedLog {
  head(): LogTime;
  readonly floor: LogTime;
}

interface Checkpoint {
  offsets: Offsets;
  time: LogTime;
}

/**
 * Where one replica's live board stands in the log over time: after the batches its views apply,
 * at most every `spacingMs` of change-log time, the offsets applied so far and the board's
 * change-log time then. Offsets only grow, so the
 * checkpoints are ordered both ways, and a position from anywhere finds its place here by a
 * binary search: the latest checkpoint at or before it in every partition. Replaying the board's
 * change log from that checkpoint's time sends everything after the position, plus what this
 * replica applied in the tenth of a second before it (rows sent again in their current state,
 * which a mirror absorbs). Checkpoints older than the change log's floor are dropped.
 */
export class PositionTrail {
  /** Names this run of this replica's live board in the `at` shortcut. */
  readonly board = randomBytes(6).toString('base64url');
  private readonly applied: number[][];
  private checkpoints: Checkpoint[];
  private first = 0;

  constructor(
    /** Names the log (see `LogPosition.log`). */
    readonly log: string,
    private readonly changes: TrailedLog,
    partitions: (topic: TopicName) => number,
    /**
     * Reads the changelogs between offsets: the removals a late-started board never held, and a
     * stream's catch-up from a position another replica served; none when absent.
     */
    readonly read: ChangelogReader | null = null,
    /**
     * Change-log time between two checkpoints: a position between them resumes from the earlier
     * one (more rows sent again, never one missed), and the trail stays small at any batch rate
     * (a 15-minute window holds at most 9,000 at 100 ms).
     */
    private readonly spacingMs = 100,
    private readonly maxCheckpoints = 100_000,
  ) {
    this.applied = DELTA_TOPICS.map((topic) => new Array<number>(partitions(topic)).fill(0));
    // Before the first batch, the board holds nothing: every change in the log is after it.
    this.checkpoints = [{ offsets: this.applied.map((o) => [...o]), time: changes.floor }];
  }

  /** A batch of `topic` up to `nextOffset` (exclusive) was just applied to the board. */
  readonly record = (topic: TopicName, partition: number, nextOffset: number): void => {
    const t = DELTA_TOPICS.indexOf(topic);
    const offsets = this.applied[t];
    if (!offsets || partition >= offsets.length || nextOffset <= (offsets[partition] ?? 0)) return;
    offsets[partition] = nextOffset;
    const time = this.changes.head();
    const last = this.checkpoints[this.checkpoints.length - 1] as Checkpoint;
    // Within the spacing, unless the last checkpoint fell out of the window: one must stay usable.
    if (time.ms - last.time.ms < this.spacingMs && compareLogTime(last.time, this.changes.floor) >= 0) return;
    this.checkpoints.push({ offsets: this.applied.map((o) => [...o]), time });
    this.prune();
  };

  /** The position of the board now. */
  now(): LogPosition {
    // Everything applied so far is at or before the head: these offsets and that time agree.
    return { log: this.log, offsets: this.applied.map((o) => [...o]), at: { board: this.board, time: this.changes.head() } };
  }

  /**
   * The position of change-log time `time` of this board: the offsets of the latest checkpoint
   * at or before it (a replica that did not stamp `time` resumes from there, never after it), or
   * the offsets applied so far when `time` is the head.
   */
  at(time: LogTime): LogPosition {
    if (compareLogTime(time, this.changes.head()) >= 0) return { ...this.now(), at: { board: this.board, time } };
    let lo = this.first;
    let hi = this.checkpoints.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (compareLogTime((this.checkpoints[mid] as Checkpoint).time, time) <= 0) lo = mid;
      else hi = mid - 1;
    }
    return { log: this.log, offsets: (this.checkpoints[lo] as Checkpoint).offsets, at: { board: this.board, time } };
  }

  /**
   * The change-log time from which this board replays everything after `offsets`; null when the
   * checkpoint that would answer is gone (older than the change log's floor).
   */
  timeOf(offsets: Offsets): LogTime | null {
    let lo = this.first;
    let hi = this.checkpoints.length - 1;
    if (!atOrBefore((this.checkpoints[lo] as Checkpoint).offsets, offsets)) return null;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (atOrBefore((this.checkpoints[mid] as Checkpoint).offsets, offsets)) lo = mid;
      else hi = mid - 1;
    }
    const time = (this.checkpoints[lo] as Checkpoint).time;
    return compareLogTime(time, this.changes.floor) >= 0 ? time : null;
  }

  private prune(): void {
    const floor = this.changes.floor;
    const last = this.checkpoints.length - 1;
    // A checkpoint answers only from a time the log still covers; the newest one always stays.
    while (
      this.first < last &&
      (this.checkpoints.length - this.first > this.maxCheckpoints ||
        compareLogTime((this.checkpoints[this.first] as Checkpoint).time, floor) < 0)
    ) {
      this.first++;
    }
    if (this.first > 4096 && this.first * 2 > this.checkpoints.length) {
      this.checkpoints = this.checkpoints.slice(this.first);
      this.first = 0;
    }
  }
}
