import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClickHouseLogLevel, createClient } from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem } from '../support/system.js';
import type { TestSystem } from '../support/system.js';

/**
 * The analyst endpoint used to decide "read-only" by the statement's first keyword, so
 * `WITH 1 AS x INSERT INTO accounts SELECT ...` answered 200 and wrote a row: with `api_keys` in
 * the same store, the read-only password could mint an API key. Now the engine refuses writes
 * (`readonly = 1` in a session of the statement's own) and the engine's parser decides what kind
 * of statement it is. Every attempt below must be refused, and no table, file or socket touched.
 */
const FIXTURE = 'pipeline/feeds/theoddsapi/fixtures/nfl-sunday.jsonl';
const PASSWORD = 'analyst-secret';

let sys: TestSystem;
let outDir: string;
let trap: Server;
let trapPort = 0;
let trapConnections = 0;
const SECRET_FILE_TEXT = 'the-content-no-analyst-may-read';
let secretFile: string;

/** Rows and bytes of every table of the store, as the engine counts them (no FINAL: a duplicate counts). */
async function tableCounts(): Promise<Record<string, string>> {
  const rows = await sys.store.query<{ name: string; rows: string; bytes: string }>(
    'SELECT name, toString(total_rows) AS rows, toString(total_bytes) AS bytes FROM system.tables WHERE database = currentDatabase() ORDER BY name',
  );
  return Object.fromEntries(rows.map((r) => [r.name, `${r.rows} rows, ${r.bytes} bytes`]));
}

async function send(
  sql: string,
  via: { query?: string; params?: Record<string, string> } = {},
): Promise<{ status: number; code: string | null; text: string }> {
  const search = new URLSearchParams();
  if (via.query !== undefined) search.set('query', via.query);
  for (const [name, value] of Object.entries(via.params ?? {})) search.set(`param_${name}`, value);
  const url = `${sys.analystUrl}/?${search.toString()}`;
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`analyst:${PASSWORD}`).toString('base64')}` },
    body: sql,
  });
  return { status: res.status, code: res.headers.get('x-clickhouse-exception-code'), text: await res.text() };
}

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'analyst-outfile-'));
  secretFile = join(outDir, 'secret.csv');
  writeFileSync(secretFile, `name\n${SECRET_FILE_TEXT}\n`);
  trap = createServer((socket) => {
    trapConnections++;
    socket.destroy();
  });
  await new Promise<void>((r) => trap.listen(0, '127.0.0.1', () => r()));
  trapPort = (trap.address() as { port: number }).port;
  sys = await startTestSystem({
    FEED: 'replay',
    REPLAY_FILE: FIXTURE,
    SINK_MAX_WAIT_MS: '20',
    ANALYST_PORT: '0',
    ANALYST_PASSWORD: PASSWORD,
  });
  const end = Date.now() + 20_000;
  while (Number((await sys.store.query<{ n: number }>('SELECT count() AS n FROM odds_ticks FINAL'))[0]?.n) < 34 && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 50));
  }
});

afterAll(async () => {
  await sys?.close();
  await new Promise<void>((r) => (trap ? trap.close(() => r()) : r()));
  rmSync(outDir, { recursive: true, force: true });
});

const writes = [
  'WITH 1 AS x INSERT INTO accounts SELECT * FROM accounts LIMIT 1',
  'WITH 1 AS x INSERT INTO api_keys SELECT * FROM api_keys LIMIT 1',
  'WITH (SELECT 1) AS x INSERT INTO schema_migrations SELECT * FROM schema_migrations',
  '/* a comment first */ INSERT INTO accounts SELECT * FROM accounts',
  '-- a line comment\nINSERT INTO accounts SELECT * FROM accounts',
  'iNsErT\tInTo\n\n  accounts   SELECT * FROM accounts',
  '\u00a0INSERT INTO accounts SELECT * FROM accounts',
  "INSERT INTO accounts (id, name, created_at, version) VALUES ('acct_x', 'x', now64(3), 1)",
  "INSERT INTO FUNCTION null('x String') SELECT 1",
  'CREATE TABLE stolen ENGINE = Memory AS SELECT * FROM api_keys',
  'CREATE TEMPORARY TABLE t AS SELECT 1',
  'CREATE VIEW v AS SELECT * FROM api_keys',
  'CREATE DICTIONARY d (x UInt8) PRIMARY KEY x SOURCE(NULL()) LAYOUT(FLAT()) LIFETIME(0)',
  'ALTER TABLE accounts DELETE WHERE 1',
  "ALTER TABLE accounts UPDATE name = 'x' WHERE 1",
  'ALTER TABLE accounts ADD COLUMN stolen UInt8',
  'DELETE FROM accounts WHERE 1',
  'TRUNCATE TABLE accounts',
  'DROP TABLE accounts',
  'RENAME TABLE accounts TO accounts_gone',
  'DETACH TABLE accounts',
  'OPTIMIZE TABLE accounts FINAL',
  'SYSTEM STOP MERGES',
  'SYSTEM STOP MERGES accounts',
  'SYSTEM DROP MARK CACHE',
  'SYSTEM FLUSH LOGS',
  'KILL QUERY WHERE 1',
  'KILL QUERY WHERE 1 SYNC',
  'SET readonly = 0',
  'SET max_execution_time = 0',
  'SELECT 1 SETTINGS readonly = 0',
  'SELECT 1 SETTINGS max_execution_time = 100000, max_memory_usage = 0',
  'SELECT count() FROM odds_ticks SETTINGS readonly = 2',
  'USE system',
  'SELECT 1; INSERT INTO accounts SELECT * FROM accounts',
  "SELECT ';'; INSERT INTO accounts SELECT * FROM accounts",
  "SELECT 'it''s'; DROP TABLE accounts",
  'SELECT 1 /* ; */ ; DROP TABLE accounts',
  'EXPLAIN PIPELINE INSERT INTO accounts SELECT * FROM accounts',
  'EXPLAIN SYNTAX INSERT INTO accounts SELECT * FROM accounts',
  'EXPLAIN AST DROP TABLE accounts',
  'CHECK TABLE accounts',
  'SHOW GRANTS',
  'SHOW ACCESS',
  'SHOW USERS',
  'SHOW CREATE USER default',
  'SELECT * FROM system.users',
  'GRANT ALL ON *.* TO default',
  'CREATE USER intruder',
  "BACKUP TABLE accounts TO Disk('default', 'stolen.zip')",
];

describe('the analyst endpoint refuses every statement that is not a read, and nothing changes', () => {
  it('refuses each write, DDL, SYSTEM, KILL, SET and multi-statement attempt with a ClickHouse error, never a 200 or a 5xx', async () => {
    const before = await tableCounts();
    const answers: Record<string, string> = {};
    for (const sql of writes) {
      const r = await send(sql);
      answers[sql] = `${r.status} ${r.code}`;
    }
    // Readonly (164), access denied (497), or the parser's refusal of a second statement (62).
    for (const [sql, answer] of Object.entries(answers)) expect(answer, sql).toMatch(/^(403 164|403 497|400 62)$/);
    expect(await tableCounts()).toEqual(before);
    // The statement in the URL and the rest in the body are one statement, refused whole.
    const split = await send('INSERT INTO accounts SELECT * FROM accounts LIMIT 1', { query: 'WITH 1 AS x' });
    expect([split.status, split.code]).toEqual([403, '164']);
    expect(await tableCounts()).toEqual(before);
  });

  it('answers the one refusal the old prefix check let through with READONLY, and accounts keep their rows', async () => {
    const accounts = await sys.store.query<{ n: string }>('SELECT toString(count()) AS n FROM accounts');
    const r = await send('WITH 1 AS x INSERT INTO accounts SELECT * FROM accounts LIMIT 1');
    expect([r.status, r.code]).toEqual([403, '164']);
    expect(r.text).toMatch(/^Code: 164\. DB::Exception: .*readonly mode/);
    expect(await sys.store.query<{ n: string }>('SELECT toString(count()) AS n FROM accounts')).toEqual(accounts);
  });

  it('writes no file: INTO OUTFILE is refused in every statement that can carry it', async () => {
    const targets = ['select.txt', 'show.txt', 'explain.txt', 'describe.txt', 'union.txt'].map((f) => join(outDir, f));
    const [select, show, explain, describe, union] = targets as [string, string, string, string, string];
    for (const sql of [
      `SELECT 1 INTO OUTFILE '${select}'`,
      `SHOW TABLES INTO OUTFILE '${show}'`,
      `EXPLAIN SELECT 1 INTO OUTFILE '${explain}'`,
      `DESCRIBE TABLE accounts INTO OUTFILE '${describe}' FORMAT CSV`,
      `SELECT 1 UNION ALL SELECT 2 INTO OUTFILE '${union}' AND STDOUT`,
    ]) {
      const r = await send(sql);
      expect([r.status, r.code], sql).toEqual([403, '164']);
    }
    expect(targets.filter((t) => existsSync(t))).toEqual([]);
  });

  it('reaches no file, process or address outside the store through table functions, DESCRIBE or EXPLAIN', async () => {
    const at = `127.0.0.1:${trapPort}`;
    const http = `http://${at}/bucket/data.csv`;
    const outside = [
      `SELECT * FROM file('${secretFile}', 'LineAsString')`,
      `SELECT * FROM file('${secretFile}')`,
      `DESCRIBE TABLE file('${secretFile}', 'CSVWithNames')`,
      `DESCRIBE url('${http}', 'CSVWithNames')`,
      `EXPLAIN SELECT * FROM file('${secretFile}', 'LineAsString')`,
      `SELECT * FROM url('${http}', 'LineAsString')`,
      `SELECT * FROM s3('${http}', 'CSV')`,
      `SELECT * FROM gcs('${http}', 'CSV')`,
      `SELECT * FROM oss('${http}', 'CSV')`,
      `SELECT * FROM iceberg('${http}')`,
      `SELECT * FROM deltaLake('${http}')`,
      `SELECT * FROM hudi('${http}')`,
      `SELECT * FROM remote('${at}', system.one)`,
      `SELECT * FROM remoteSecure('${at}', system.one)`,
      `SELECT * FROM mysql('${at}', 'db', 't', 'u', 'p')`,
      `SELECT * FROM postgresql('${at}', 'db', 't', 'u', 'p')`,
      `SELECT * FROM mongodb('${at}', 'db', 'c', 'u', 'p', 'x String')`,
      `SELECT * FROM redis('${at}', 'k', 'k String')`,
      `SELECT * FROM hdfs('hdfs://${at}/x', 'CSV', 'a String')`,
      "SELECT * FROM executable('cat', 'TSV', 'x String')",
      "SELECT * FROM filesystem('/etc')",
      `SELECT * FROM icebergLocal('${outDir}')`,
      `SELECT * FROM sqlite('${secretFile}', 't')`,
      "SELECT * FROM jdbc('jdbc:x', 't')",
      "SELECT * FROM odbc('DSN=x', 't')",
      "SELECT * FROM dictionary('d')",
      "SELECT * FROM viewExplain('EXPLAIN', '', (SELECT 1))",
      `SELECT * FROM input('x String')`,
    ];
    for (const sql of outside) {
      const r = await send(sql);
      expect(r.status, `${sql}: ${r.text}`).not.toBe(200);
      expect(r.status, sql).toBeLessThan(500);
      expect(r.text, sql).not.toContain(SECRET_FILE_TEXT);
    }
    // Every table function the engine knows, called with an address and a file of ours.
    const names = (await sys.store.query<{ name: string }>('SELECT name FROM system.table_functions ORDER BY name')).map((r) => r.name);
    expect(names.length).toBeGreaterThan(50);
    for (const name of names) {
      for (const args of [`'${http}', 'CSV', 'a String'`, `'${secretFile}', 'LineAsString'`, `'${at}', 'db', 't', 'u', 'p'`]) {
        const r = await send(`SELECT * FROM ${name}(${args}) LIMIT 1`);
        expect(r.status, `${name}(${args}): ${r.text}`).toBeLessThan(500);
        expect(r.text, name).not.toContain(SECRET_FILE_TEXT);
      }
    }
    expect(trapConnections).toBe(0);
  });

  it('binds param_ values as data: a value that would end the string and write is only text', async () => {
    const before = await tableCounts();
    const hostile = "x'); INSERT INTO accounts SELECT * FROM accounts; --";
    const r = await send('SELECT {v:String} AS v, {n:UInt32} + 1 AS n FORMAT TSV', { params: { v: hostile, n: '41', ['__proto__']: 'x' } });
    expect([r.status, r.text]).toEqual([200, "x\\'); INSERT INTO accounts SELECT * FROM accounts; --\t42\n"]);
    const missing = await send('SELECT {v:String}');
    expect([missing.status, missing.code]).toEqual([400, '456']);
    expect(await tableCounts()).toEqual(before);
  });

  it('reads still answer, with comments, odd case and whitespace, through @clickhouse/client', async () => {
    const ch = createClient({ url: sys.analystUrl ?? '', username: 'analyst', password: PASSWORD, log: { level: ClickHouseLogLevel.OFF } });
    try {
      const rows = await (
        await ch.query({ query: '-- how many ticks\n/* per book */ sElEcT\tcount() AS n\nFROM odds_ticks FINAL', format: 'JSONEachRow' })
      ).json<{ n: string | number }>();
      expect(Number(rows[0]?.n)).toBe(34);
      for (const sql of [
        'SHOW TABLES',
        'DESCRIBE TABLE odds_ticks',
        'EXISTS TABLE odds_ticks',
        'SHOW CREATE TABLE events',
        'EXPLAIN SELECT 1',
        'SELECT 1 UNION ALL SELECT 2',
        "SELECT ';' AS semicolon",
      ]) {
        const r = await send(sql);
        expect(r.status, `${sql}: ${r.text}`).toBe(200);
      }
    } finally {
      await ch.close();
    }
  });
});
