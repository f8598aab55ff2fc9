import { describe, expect, it } from 'vitest';
import { TOPICS } from '../../schemas/index.js';
import type { LogTime } from '../views/index.js';
import { PositionTrail, decodePosition, encodePosition } from './log-position.js';
import type { TrailedLog } from './log-position.js';

/** A change log whose head and floor the test moves by hand. */
class FakeLog implements TrailedLog {
  time: LogTime = { ms: 1000, sub: 0 };
  floor: LogTime = { ms: 1000, sub: 0 };
  head(): LogTime {
    return this.time;
  }
}

const twoPartitions = (): number => 2;

describe('a log position as text', () => {
  it('reads back what it wrote, with and without the issuing board', () => {
    const p = {
      log: 'kafka',
      offsets: [
        [5, 0],
        [7, 3],
      ],
      at: { board: 'b1', time: { ms: 1234, sub: 5 } },
    };
    expect(decodePosition(encodePosition(p))).toEqual(p);
    const bare = {
      log: 'kafka',
      offsets: [
        [5, 0],
        [7, 3],
      ],
      at: null,
    };
    expect(decodePosition(encodePosition(bare))).toEqual(bare);
  });

  it('is null for anything this service did not make', () => {
    const enc = (x: unknown): string => Buffer.from(JSON.stringify(x)).toString('base64url');
    for (const text of [
      '',
      '!!!',
      'bm90IGpzb24',
      enc({}),
      enc([2, 'kafka', [[0], [0]]]),
      enc([1, 'kafka', [[0]]]),
      enc([1, 'kafka', [[-1], [0]]]),
      enc([1, 'kafka', [[0.5], [0]]]),
      enc([1, 'kafka', [['1'], [0]]]),
      enc([1, 7, [[0], [0]]]),
      enc([1, 'kafka', [[0], [0]], 'b', -1, 0]),
      enc([1, 'kafka', [new Array(1025).fill(0), [0]]]),
      'a'.repeat(70_000),
    ]) {
      expect(decodePosition(text)).toBeNull();
    }
  });
});

describe('a position trail', () => {
  function trail(): { log: FakeLog; trail: PositionTrail } {
    const log = new FakeLog();
    return { log, trail: new PositionTrail('kafka', log, twoPartitions, null, 0) };
  }

  it('answers a position before anything was applied from the change log floor', () => {
    const { log, trail: t } = trail();
    expect(
      t.timeOf([
        [0, 0],
        [0, 0],
      ]),
    ).toEqual(log.floor);
  });

  it('answers a position of another replica from its own latest checkpoint at or before it in every partition', () => {
    const { log, trail: t } = trail();
    log.time = { ms: 1001, sub: 3 };
    t.record(TOPICS.snapshot, 0, 10);
    log.time = { ms: 1002, sub: 1 };
    t.record(TOPICS.events, 1, 4);
    log.time = { ms: 1003, sub: 9 };
    t.record(TOPICS.snapshot, 1, 6);
    expect(
      t.timeOf([
        [10, 0],
        [0, 4],
      ]),
    ).toEqual({ ms: 1002, sub: 1 });
    // Between checkpoints: the earlier one, so nothing after the position is missed.
    expect(
      t.timeOf([
        [12, 5],
        [0, 4],
      ]),
    ).toEqual({ ms: 1002, sub: 1 });
    expect(
      t.timeOf([
        [9, 9],
        [9, 9],
      ]),
    ).toEqual({ ms: 1000, sub: 0 });
    expect(
      t.timeOf([
        [99, 99],
        [99, 99],
      ]),
    ).toEqual({ ms: 1003, sub: 9 });
  });

  it('names the board now by the offsets it applied', () => {
    const { log, trail: t } = trail();
    log.time = { ms: 1001, sub: 1 };
    t.record(TOPICS.snapshot, 1, 3);
    expect(t.now()).toEqual({
      log: 'kafka',
      offsets: [
        [0, 3],
        [0, 0],
      ],
      at: { board: t.board, time: { ms: 1001, sub: 1 } },
    });
  });

  it('ignores topics the delta does not read and offsets that do not move forward', () => {
    const { log, trail: t } = trail();
    log.time = { ms: 1001, sub: 1 };
    t.record(TOPICS.opportunities, 0, 50);
    t.record(TOPICS.snapshot, 0, 5);
    t.record(TOPICS.snapshot, 0, 5);
    t.record(TOPICS.snapshot, 7, 5);
    expect(t.now().offsets).toEqual([
      [5, 0],
      [0, 0],
    ]);
  });

  it('keeps a checkpoint at most every spacing of change-log time, and names the board now exactly', () => {
    const log = new FakeLog();
    const t = new PositionTrail('kafka', log, twoPartitions, null, 100);
    log.time = { ms: 1050, sub: 1 };
    t.record(TOPICS.snapshot, 0, 5);
    log.time = { ms: 1100, sub: 1 };
    t.record(TOPICS.snapshot, 0, 9);
    expect(
      t.timeOf([
        [9, 0],
        [0, 0],
      ]),
    ).toEqual({ ms: 1100, sub: 1 });
    // Within the spacing: no checkpoint; a position there resumes from the one before.
    log.time = { ms: 1150, sub: 1 };
    t.record(TOPICS.snapshot, 0, 12);
    expect(
      t.timeOf([
        [12, 0],
        [0, 0],
      ]),
    ).toEqual({ ms: 1100, sub: 1 });
    expect(t.now().offsets).toEqual([
      [12, 0],
      [0, 0],
    ]);
    expect(t.at({ ms: 1150, sub: 1 }).offsets).toEqual([
      [12, 0],
      [0, 0],
    ]);
    expect(t.at({ ms: 1120, sub: 0 }).offsets).toEqual([
      [9, 0],
      [0, 0],
    ]);
  });

  it('keeps one checkpoint inside the window even within the spacing', () => {
    const log = new FakeLog();
    const t = new PositionTrail('kafka', log, twoPartitions, null, 100);
    log.time = { ms: 1000, sub: 9 };
    log.floor = { ms: 1000, sub: 5 };
    t.record(TOPICS.snapshot, 0, 5);
    expect(
      t.timeOf([
        [5, 0],
        [0, 0],
      ]),
    ).toEqual({ ms: 1000, sub: 9 });
  });

  it('cannot answer a position whose checkpoint is older than the change log floor', () => {
    const { log, trail: t } = trail();
    log.time = { ms: 1001, sub: 1 };
    t.record(TOPICS.snapshot, 0, 5);
    log.time = { ms: 1005, sub: 1 };
    log.floor = { ms: 1004, sub: 0 };
    t.record(TOPICS.snapshot, 0, 8);
    expect(
      t.timeOf([
        [6, 0],
        [0, 0],
      ]),
    ).toBeNull();
    expect(
      t.timeOf([
        [8, 0],
        [0, 0],
      ]),
    ).toEqual({ ms: 1005, sub: 1 });
  });
});
