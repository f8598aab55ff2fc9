import { describe, it } from 'vitest';
import { GenericContainer, getContainerRuntimeClient } from 'testcontainers';
import type { StartedTestContainer } from 'testcontainers';
import { describeStoreContract } from '../../test/support/store-contract.js';
import { ClickHouseStore } from './clickhouse-store.js';

/**
 * The server adapter against a real ClickHouse: the one at CLICKHOUSE_URL when set, else a
 * container through testcontainers. Machines with neither (no Docker engine) skip, and say so;
 * the same contract runs there against the development store server, the ClickHouse engine over
 * ClickHouse's HTTP interface (bench/store-server.test.ts).
 */
async function whyUnavailable(): Promise<string | null> {
  if (process.env['CLICKHOUSE_URL']) return null;
  try {
    await getContainerRuntimeClient();
    return null;
  } catch (e) {
    return `no CLICKHOUSE_URL and no container runtime for testcontainers (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`;
  }
}

const unavailable = await whyUnavailable();
if (unavailable) {
  console.warn(`skipping the ClickHouse server adapter tests: ${unavailable}`);
  describe('ClickHouseStore (server)', () => {
    it.skip(`needs a ClickHouse server: ${unavailable}`, () => {});
  });
} else {
  describeStoreContract('ClickHouseStore (server)', async () => {
    const given = process.env['CLICKHOUSE_URL'];
    if (given) {
      const database = `odds_test_${Date.now()}`;
      const admin = new ClickHouseStore({
        url: given,
        username: process.env['CLICKHOUSE_USER'],
        password: process.env['CLICKHOUSE_PASSWORD'],
      });
      await admin.exec(`CREATE DATABASE ${database}`);
      const store = new ClickHouseStore({
        url: given,
        username: process.env['CLICKHOUSE_USER'],
        password: process.env['CLICKHOUSE_PASSWORD'],
        database,
      });
      return {
        store,
        cleanup: async () => {
          await admin.exec(`DROP DATABASE ${database}`);
          await admin.close();
        },
      };
    }
    const container: StartedTestContainer = await new GenericContainer('clickhouse/clickhouse-server:25.8')
      .withExposedPorts(8123)
      .withEnvironment({ CLICKHOUSE_USER: 'odds', CLICKHOUSE_PASSWORD: 'odds', CLICKHOUSE_DEFAULT_ACCESS_MANAGEMENT: '1' })
      .start();
    const store = new ClickHouseStore({
      url: `http://${container.getHost()}:${container.getMappedPort(8123)}`,
      username: 'odds',
      password: 'odds',
    });
    return {
      store,
      cleanup: async () => {
        await container.stop();
      },
    };
  });
}
