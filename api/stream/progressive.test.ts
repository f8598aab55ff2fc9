/**
 * A large snapshot held the event loop for a whole frame at a time: a thousand rows presented for
 * the first time (tens of milliseconds) between two chances for anything else to run. Frames of
 * rows are now built a hundred rows at a time ahead of sending, and the sender may end its turn
 * between pieces.
 */
import { describe, expect, it } from 'vitest';
import { RowsFrame, sendInTurns } from './progressive.js';

/** Rows whose JSON is made on first read, counting the reads that made it. */
function lazyRows(n: number, log: string[]): { readonly json: string }[] {
  return Array.from({ length: n }, (_, i) => {
    let json: string | undefined;
    return {
      get json(): string {
        if (json === undefined) {
          log.push(`present ${i}`);
          json = `{"n":${i}}`;
        }
        return json;
      },
    };
  });
}

describe('RowsFrame', () => {
  it('presents its rows a hundred at a time, then joins them once and keeps the text', () => {
    const log: string[] = [];
    const frame = new RowsFrame(lazyRows(250, log), (joined) => `"data":[${joined}]`);
    expect(frame.pieces).toBe(3);
    frame.build(2);
    expect(log).toEqual(Array.from({ length: 50 }, (_, i) => `present ${200 + i}`));
    const text = frame.text();
    expect(log).toHaveLength(250);
    expect(JSON.parse(`{${text}}`)).toEqual({ data: Array.from({ length: 250 }, (_, n) => ({ n })) });
    expect(frame.pieces).toBe(0);
    expect(frame.text()).toBe(text);
  });
});

describe('sendInTurns', () => {
  it('builds a frame piece by piece before sending it, ending a turn between pieces when the budget is spent', async () => {
    const log: string[] = [];
    const frames = [new RowsFrame(lazyRows(200, []), (j) => j), undefined];
    const other = (): void => {
      log.push('other work');
      if (log.length < 20) setImmediate(other);
    };
    setImmediate(other);
    const built: string[] = [];
    const piecewise = (i: number): { pieces: number; build(k: number): void } | undefined => {
      const f = frames[i];
      return (
        f && {
          pieces: f.pieces,
          build: (k) => {
            built.push(`${i}.${k}`);
            log.push(`build ${i}.${k}`);
            f.build(k);
          },
        }
      );
    };
    const sent = await sendInTurns(
      2,
      (i) => log.push(`send ${i}`),
      () => true,
      0,
      piecewise,
    );
    expect(sent).toBe(true);
    expect(built).toEqual(['0.0', '0.1']);
    const mine = log.filter((l) => l !== 'other work');
    expect(mine).toEqual(['build 0.0', 'build 0.1', 'send 0', 'send 1']);
    // With no budget, other work runs between the pieces and between the frames.
    expect(log.slice(log.indexOf('build 0.0'), log.indexOf('send 1') + 1)).toEqual([
      'build 0.0',
      'other work',
      'build 0.1',
      'other work',
      'send 0',
      'other work',
      'send 1',
    ]);
  });

  it('stops between pieces when the client goes', async () => {
    const log: string[] = [];
    const frame = new RowsFrame(lazyRows(300, log), (j) => j);
    let alive = true;
    const sent = await sendInTurns(
      1,
      () => log.push('send'),
      () => alive,
      0,
      () => ({
        pieces: frame.pieces,
        build: (k) => {
          frame.build(k);
          alive = false;
        },
      }),
    );
    expect(sent).toBe(false);
    expect(log).toHaveLength(100);
    expect(log).not.toContain('send');
  });
});
