/**
 * What went wrong: a garbage replay file produced 35,088 warning lines, one per bad line, which
 * buried everything else in the log. A repeated warning is now logged once with its details and
 * then summarised with counts: one line at the end of the replay (and at most one a minute
 * while a slow replay runs).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock.js';
import { ReplayFeed } from './replay-feed.js';
import { RepeatedWarning } from '../feed-runtime.js';
import type { FeedLogger } from '../feed-runtime.js';

interface Line {
  level: string;
  msg: string;
  fields: Record<string, unknown>;
}

function capture(): { logger: FeedLogger; lines: Line[] } {
  const lines: Line[] = [];
  const at =
    (level: string) =>
    (fields: Record<string, unknown>, msg: string): void =>
      void lines.push({ level, msg, fields });
  return { logger: { info: at('info'), warn: at('warn'), error: at('error') }, lines };
}

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'repeated-warnings-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('repeated warnings', () => {
  it('replaying 5,000 garbage lines logs two warnings: the first bad line, then one summary with the count', async () => {
    const file = join(dir, 'garbage.jsonl');
    await writeFile(file, Array.from({ length: 5000 }, (_, i) => `garbage ${i} {`).join('\n'));
    const { logger, lines } = capture();
    const feed = new ReplayFeed({ file, speed: 'max', clock: new ManualClock(0), logger });
    await feed.start(async () => undefined);
    const stats = await feed.done;
    expect(stats.malformedLines).toBe(5000);
    const warnings = lines.filter((l) => l.level === 'warn');
    expect(warnings.map((w) => w.msg)).toEqual(['replay: malformed line skipped', 'replay: malformed line skipped (repeated)']);
    expect(warnings[0]?.fields).toMatchObject({ file, line: 1 });
    expect(warnings[1]?.fields).toMatchObject({ count: 4999, total: 5000, first: { file, line: 1 }, last: { file, line: 5000 } });
    expect(lines.filter((l) => l.level === 'info').map((l) => l.msg)).toEqual(['replay started', 'replay completed']);
  });

  it('summarises at most once per interval while the warnings keep coming, and not at all when they do not repeat', () => {
    const { logger, lines } = capture();
    let now = 0;
    const w = new RepeatedWarning(logger, 'bad thing', 60_000, () => now);
    for (let i = 0; i < 100; i++) {
      w.note({ i });
      now += 1000;
    }
    w.flush();
    expect(lines.map((l) => [l.msg, l.fields['count'] ?? null, l.fields['total'] ?? null])).toEqual([
      ['bad thing', null, null],
      ['bad thing (repeated)', 60, 61],
      ['bad thing (repeated)', 39, 100],
    ]);
    const once = capture();
    const single = new RepeatedWarning(once.logger, 'rare thing');
    single.note({});
    single.flush();
    expect(once.lines).toHaveLength(1);
  });
});
