// Issue 15 item 5: bad settings and damaged files at start printed stack traces (27 lines for an
// unreachable CLICKHOUSE_URL), were noticed after the port opened (a missing REPLAY_FILE), or
// were silently "repaired" (a wrongly shaped demo-keys.json replaced by new keys). Every one of
// them must print one line naming the setting or file and exit non-zero before the port opens.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exited, spawnEntry } from '../test/support/entry.js';

const dirs: string[] = [];
function dataDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'odds-start-'));
  dirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function failsWithOneLine(env: Record<string, string>, names: string): Promise<string> {
  const result = await exited(spawnEntry({ DATA_DIR: dataDir(), ...env }));
  const lines = result.stderr.split('\n').filter((l) => l.trim().length > 0);
  expect(result.code, result.stderr).toBe(2);
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toContain(names);
  expect(lines[0]).toMatch(/^cannot start: /);
  expect(result.stdout).not.toContain('Odds platform API');
  return lines[0] ?? '';
}

describe('a start that cannot succeed prints one line naming the cause and exits 2 before listening', () => {
  it('API_KEYS that are not tier:key pairs, without echoing the secret', async () => {
    const line = await failsWithOneLine({ API_KEYS: 'garbage-secret-value' }, 'API_KEYS');
    expect(line).not.toContain('garbage-secret-value');
  });

  it('an unknown LOG_LEVEL', async () => {
    expect(await failsWithOneLine({ LOG_LEVEL: 'nope' }, 'LOG_LEVEL')).toContain('"nope"');
  });

  it('FEED=replay with a REPLAY_FILE that does not exist', async () => {
    await failsWithOneLine({ FEED: 'replay', REPLAY_FILE: '/nonexistent/recording.jsonl' }, 'REPLAY_FILE');
  });

  it('a demo-keys.json that is not JSON, left as it was', async () => {
    const dir = dataDir();
    writeFileSync(join(dir, 'demo-keys.json'), '{"free": "free_abc', 'utf8');
    await failsWithOneLine({ DATA_DIR: dir }, join(dir, 'demo-keys.json'));
    expect(readFileSync(join(dir, 'demo-keys.json'), 'utf8')).toBe('{"free": "free_abc');
  });

  it('a demo-keys.json of the wrong shape, not replaced with new keys', async () => {
    const dir = dataDir();
    writeFileSync(join(dir, 'demo-keys.json'), '{"free": 1}', 'utf8');
    await failsWithOneLine({ DATA_DIR: dir }, 'demo-keys.json');
    expect(readFileSync(join(dir, 'demo-keys.json'), 'utf8')).toBe('{"free": 1}');
  });

  it('a DATA_DIR that is a file', async () => {
    const file = join(dataDir(), 'plain-file');
    writeFileSync(file, 'x');
    await failsWithOneLine({ DATA_DIR: file }, `DATA_DIR ${file} is not a directory`);
  });

  it('a DATA_DIR that cannot be written', async () => {
    // Permission bits do not stop root; a procfs directory refuses new files to everyone.
    const dir = process.getuid?.() === 0 ? '/proc/self/fdinfo' : dataDir();
    if (dir !== '/proc/self/fdinfo') (await import('node:fs')).chmodSync(dir, 0o500);
    await failsWithOneLine({ DATA_DIR: dir }, `DATA_DIR ${dir} is not writable`);
  });

  it('a second instance on a DATA_DIR whose lock a live process holds', async () => {
    const dir = dataDir();
    writeFileSync(join(dir, 'instance.lock'), String(process.pid));
    await failsWithOneLine({ DATA_DIR: dir }, `in use by another instance (pid ${process.pid}`);
  });

  it('an unreachable CLICKHOUSE_URL', async () => {
    await failsWithOneLine({ CLICKHOUSE_URL: 'http://127.0.0.1:1' }, 'CLICKHOUSE_URL http://127.0.0.1:1');
  });

  it('a ROLE that needs Kafka without KAFKA_BROKERS', async () => {
    await failsWithOneLine({ ROLE: 'pipeline' }, 'KAFKA_BROKERS');
  });

  it('a PORT another process holds', async () => {
    const holder = createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', () => r()));
    const port = (holder.address() as AddressInfo).port;
    try {
      await failsWithOneLine({ PORT: String(port) }, `PORT ${port}`);
    } finally {
      holder.close();
    }
  });
});
