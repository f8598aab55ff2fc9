// The server-mode analyst user (infra/clickhouse/users.xml) against a real ClickHouse server in a
// container: the same bypass attempts as the embedded endpoint's corpus must be refused by the
// profile and its grants, and nothing written. Machines without a Docker engine skip, and say why.
import { fileURLToPath } from 'node:url';
import { ClickHouseLogLevel, createClient } from '@clickhouse/client';
import type { ClickHouseClient } from '@clickhouse/client';
import { GenericContainer, Wait } from 'testcontainers';
import type { StartedTestContainer } from 'testcontainers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whyContainersUnavailable } from '../support/container-runtime.js';

const unavailable = await whyContainersUnavailable();
if (unavailable) console.warn(`skipping the server analyst-profile suite (ClickHouse server in a container): ${unavailable}`);

const ATTEMPTS = [
  'WITH 1 AS x INSERT INTO accounts SELECT * FROM accounts',
  "INSERT INTO accounts VALUES ('acct_x', 'x')",
  'CREATE TABLE stolen ENGINE = Memory AS SELECT * FROM accounts',
  'ALTER TABLE accounts DELETE WHERE 1',
  'TRUNCATE TABLE accounts',
  'DROP TABLE accounts',
  'OPTIMIZE TABLE accounts FINAL',
  'SYSTEM STOP MERGES',
  'SELECT 1 SETTINGS readonly = 0',
  'SELECT 1 SETTINGS max_execution_time = 100000',
  "SELECT * FROM file('/etc/passwd', 'LineAsString')",
  "SELECT * FROM url('http://127.0.0.1:9/x', 'LineAsString')",
  "SELECT * FROM executable('cat', 'TSV', 'x String')",
  'GRANT ALL ON *.* TO analyst',
];

describe.skipIf(unavailable !== null)('the server analyst profile (infra/clickhouse/users.xml)', () => {
  let server: StartedTestContainer;
  let odds: ClickHouseClient;
  let analyst: ClickHouseClient;

  beforeAll(async () => {
    server = await new GenericContainer('clickhouse/clickhouse-server:25.8')
      .withExposedPorts(8123)
      .withEnvironment({ ODDS_PASSWORD: 'odds-password', ANALYST_PASSWORD: 'analyst-password' })
      .withCopyFilesToContainer([
        {
          source: fileURLToPath(new URL('../../infra/clickhouse/users.xml', import.meta.url)),
          target: '/etc/clickhouse-server/users.d/odds-users.xml',
        },
      ])
      .withWaitStrategy(Wait.forHttp('/ping', 8123).forStatusCode(200))
      .withStartupTimeout(180_000)
      .start();
    const url = `http://${server.getHost()}:${server.getMappedPort(8123)}`;
    odds = createClient({ url, username: 'odds', password: 'odds-password', log: { level: ClickHouseLogLevel.OFF } });
    analyst = createClient({ url, username: 'analyst', password: 'analyst-password', log: { level: ClickHouseLogLevel.OFF } });
    await odds.command({ query: 'CREATE TABLE IF NOT EXISTS accounts (id String, name String) ENGINE = MergeTree ORDER BY id' });
    await odds.command({ query: "INSERT INTO accounts VALUES ('acct_1', 'one')" });
  }, 300_000);

  afterAll(async () => {
    await odds?.close();
    await analyst?.close();
    await server?.stop().catch(() => undefined);
  });

  const count = async (): Promise<number> =>
    Number((await (await odds.query({ query: 'SELECT count() AS n FROM accounts', format: 'JSONEachRow' })).json<{ n: string }>())[0]?.n);

  it('refuses every write, DDL, SYSTEM, settings change and outside table function, and accounts keep their one row', async () => {
    for (const query of ATTEMPTS)
      await expect(analyst.command({ query }), query).rejects.toThrow(/readonly|Not enough privileges|ACCESS_DENIED|READONLY/i);
    expect(await count()).toBe(1);
  });

  it("cuts numbers(1e12) at the profile's rows limit, and cannot kill another user's query", async () => {
    await expect(analyst.query({ query: 'SELECT * FROM numbers(1e12) FORMAT Null' })).rejects.toThrow(/TOO_MANY_ROWS|max_rows_to_read/);
    const long = odds
      .query({ query: 'SELECT count() FROM system.numbers', format: 'JSONEachRow', clickhouse_settings: { max_execution_time: 5 } })
      .then(
        () => 'finished',
        (e: unknown) => String(e),
      );
    await new Promise((r) => setTimeout(r, 500));
    await analyst.command({ query: "KILL QUERY WHERE user = 'odds' ASYNC" }).catch(() => undefined);
    expect(await long).toMatch(/TIMEOUT_EXCEEDED|Timeout exceeded/);
  }, 60_000);
});
