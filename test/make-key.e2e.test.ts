/**
 * `make key`: an operator creates accounts and keys straight in the key store, without the
 * API; the service started on that store accepts them. (Its own file: chDB allows one data
 * directory per process.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { runKeyCommand } from '../runtime/key-command.js';
import { loadConfig } from '../runtime/config.js';
import { startSystem } from '../runtime/system.js';
import { ScriptedFeed } from './support/scripted-feed.js';

type Row = Record<string, unknown>;
const logger = pino({ level: 'silent' });

async function call(base: string, path: string, key: string): Promise<{ status: number; body: Row }> {
  const res = await fetch(`${base}/api/v1${path}`, { headers: { 'x-api-key': key } });
  return { status: res.status, body: (await res.json()) as Row };
}
const data = (a: { body: Row }): Row => a.body['data'] as Row;
describe('make key', () => {
  it('creates an account and a key without the API; the service then accepts it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'odds-make-key-'));
    try {
      const lines = await runKeyCommand(['--tier', 'pro', '--name', 'Acme Analytics'], { DATA_DIR: dir });
      const secret = /secret \(shown once, keep it safe\): (\S+)/.exec(lines.join('\n'))?.[1] as string;
      expect(secret).toMatch(/^sk_live_/);
      const account = /account (acct_[0-9a-f]{16})/.exec(lines[0] ?? '')?.[1] as string;
      const more = await runKeyCommand(['--tier', 'pro', '--name', 'Acme backup', '--account', account, '--rpm', '50'], { DATA_DIR: dir });
      const other = /: (\S+)$/.exec(more[1] ?? '')?.[1] as string;
      await expect(runKeyCommand(['--tier', 'gold', '--name', 'x'], { DATA_DIR: dir })).rejects.toThrow(/TIER must be one of/);
      await expect(runKeyCommand(['--tier', 'pro', '--name', 'x', '--account', 'acct_nope'], { DATA_DIR: dir })).rejects.toThrow(
        /no account/,
      );

      const s = await startSystem(loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir, SHED_EVENT_LOOP_DELAY_MS: '0' }), logger, {
        feed: () => new ScriptedFeed(),
      });
      try {
        const me = await call(s.url, '/account', secret);
        expect(me.status).toBe(200);
        expect(data(me)).toMatchObject({ tier: 'pro', account_id: account, account_name: 'Acme Analytics' });
        const limited = await call(s.url, '/account', other);
        expect(data(limited)['rate_limit']).toEqual({ requests_per_minute: 50, max_books: 15 });
        expect(((await call(s.url, '/account/keys', secret)).body['data'] as Row[]).map((k) => k['name'])).toEqual([
          'Acme Analytics',
          'Acme backup',
        ]);
      } finally {
        await s.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('registers API_KEYS secrets as ordinary keys that follow their configured tier across restarts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'odds-api-keys-'));
    const secret = 'operator-chosen-secret-1';
    const start = (tier: string) =>
      startSystem(
        loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir, API_KEYS: `${tier}:${secret}`, SHED_EVENT_LOOP_DELAY_MS: '0' }),
        logger,
        { feed: () => new ScriptedFeed() },
      );
    try {
      let s = await start('hobby');
      const first = data(await call(s.url, '/account', secret));
      expect(first).toMatchObject({ tier: 'hobby', account_name: 'operator hobby' });
      await s.stop();
      s = await start('sharp');
      const second = data(await call(s.url, '/account', secret));
      expect(second).toMatchObject({ tier: 'sharp', key_id: first['key_id'], account_id: first['account_id'] });
      await s.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
