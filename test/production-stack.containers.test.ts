// The production runtime against the real thing: Kafka (KRaft, the official Apache image),
// Confluent Schema Registry and ClickHouse server, in containers through testcontainers. The
// same properties as on librdkafka's mock cluster: a pipeline process killed with -9 mid-stream
// and started again leaves every tick exactly once in ClickHouse and the board and active
// opportunities of an uninterrupted run; the registry refuses a breaking schema before anything
// is produced; two API processes serve identical /odds. Machines without a Docker engine skip,
// and say why.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SchemaRegistryClient } from '@confluentinc/schemaregistry';
import { GenericContainer, Network, Wait } from 'testcontainers';
import type { StartedNetwork, StartedTestContainer } from 'testcontainers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whyContainersUnavailable } from './support/container-runtime.js';
import { AVRO_SCHEMAS, TOPICS, tierBookScopes } from '../schemas/index.js';
import { AvroCodec, KafkaBus, SchemaCompatibilityError } from '../pipeline/bus/index.js';
import { ClickHouseStore } from '../pipeline/store/index.js';
import { exited, spawnEntry, waitForOutput } from './support/entry.js';
import { OPERATOR_ENV, idle, killMidStream, recordedInput, settledOdds } from './support/pipeline-processes.js';
import { STORED_TICK_COLUMNS, changelogOutcome, storedTickIdentity, uninterrupted } from './support/uninterrupted.js';

const unavailable = await whyContainersUnavailable();
if (unavailable) console.warn(`skipping the production-stack suite (real Kafka, Schema Registry, ClickHouse server): ${unavailable}`);

/** A free port on this host: Kafka must advertise the port clients reach it on, known before it starts. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const T0 = Date.now() - 60_000;

describe.skipIf(unavailable !== null)('the production stack in containers (Kafka KRaft, Schema Registry, ClickHouse server)', () => {
  let network: StartedNetwork;
  const containers: StartedTestContainer[] = [];
  let brokers: string[] = [];
  let registryUrl = '';
  let clickhouseUrl = '';
  const dirs: string[] = [];
  const dataDir = (): string => {
    const d = mkdtempSync(join(tmpdir(), 'odds-stack-'));
    dirs.push(d);
    return d;
  };

  beforeAll(async () => {
    network = await new Network().start();
    const kafkaPort = await freePort();
    const kafka = await new GenericContainer('apache/kafka:3.9.1')
      .withNetwork(network)
      .withNetworkAliases('kafka')
      .withExposedPorts({ container: 9092, host: kafkaPort })
      .withEnvironment({
        KAFKA_NODE_ID: '1',
        KAFKA_PROCESS_ROLES: 'broker,controller',
        KAFKA_CONTROLLER_QUORUM_VOTERS: '1@kafka:9093',
        KAFKA_LISTENERS: 'PLAINTEXT://0.0.0.0:9092,INTERNAL://0.0.0.0:19092,CONTROLLER://0.0.0.0:9093',
        KAFKA_ADVERTISED_LISTENERS: `PLAINTEXT://127.0.0.1:${kafkaPort},INTERNAL://kafka:19092`,
        KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'PLAINTEXT:PLAINTEXT,INTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT',
        KAFKA_INTER_BROKER_LISTENER_NAME: 'INTERNAL',
        KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
        KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
        KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
        KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
        KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
        KAFKA_NUM_PARTITIONS: '4',
      })
      .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
      .withStartupTimeout(180_000)
      .start();
    containers.push(kafka);
    brokers = [`127.0.0.1:${kafkaPort}`];
    const [registry, clickhouse] = await Promise.all([
      new GenericContainer('confluentinc/cp-schema-registry:7.7.1')
        .withNetwork(network)
        .withExposedPorts(8081)
        .withEnvironment({
          SCHEMA_REGISTRY_HOST_NAME: 'schema-registry',
          SCHEMA_REGISTRY_LISTENERS: 'http://0.0.0.0:8081',
          SCHEMA_REGISTRY_KAFKASTORE_BOOTSTRAP_SERVERS: 'PLAINTEXT://kafka:19092',
        })
        .withWaitStrategy(Wait.forHttp('/subjects', 8081).forStatusCode(200))
        .withStartupTimeout(180_000)
        .start(),
      new GenericContainer('clickhouse/clickhouse-server:25.8')
        .withExposedPorts(8123)
        .withEnvironment({ CLICKHOUSE_USER: 'odds', CLICKHOUSE_PASSWORD: 'odds', CLICKHOUSE_DEFAULT_ACCESS_MANAGEMENT: '1' })
        .withWaitStrategy(Wait.forHttp('/ping', 8123).forStatusCode(200))
        .start(),
    ]);
    containers.push(registry, clickhouse);
    registryUrl = `http://${registry.getHost()}:${registry.getMappedPort(8081)}`;
    clickhouseUrl = `http://${clickhouse.getHost()}:${clickhouse.getMappedPort(8123)}`;
  }, 600_000);

  afterAll(async () => {
    for (const c of containers.reverse()) await c.stop().catch(() => undefined);
    await network?.stop().catch(() => undefined);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }, 120_000);

  const registryBus = (): KafkaBus =>
    new KafkaBus({
      brokers,
      sessionTimeoutMs: 10_000,
      codec: new AvroCodec({ client: SchemaRegistryClient.newClient({ baseURLs: [registryUrl] }) }),
    });
  const serverEnv = (): Record<string, string> => ({
    KAFKA_BROKERS: brokers.join(','),
    SCHEMA_REGISTRY_URL: registryUrl,
    CLICKHOUSE_URL: clickhouseUrl,
    CLICKHOUSE_USER: 'odds',
    CLICKHOUSE_PASSWORD: 'odds',
    KAFKA_SESSION_TIMEOUT_MS: '10000',
    LOG_LEVEL: 'warn',
  });
  const startPipelineProcess = async (): Promise<{ child: ReturnType<typeof spawnEntry>; url: string }> => {
    const child = spawnEntry({
      ...serverEnv(),
      ...OPERATOR_ENV,
      ROLE: 'pipeline',
      FEED: 'none',
      DATA_DIR: dataDir(),
      SINK_MAX_WAIT_MS: '100',
    });
    const [, url] = await waitForOutput(child, /Odds platform pipeline: (http:\/\/[0-9.:]+)\/health/, 180_000);
    return { child, url: url ?? '' };
  };

  it('refuses a breaking schema change at the registry before anything is produced', async () => {
    const client = SchemaRegistryClient.newClient({ baseURLs: [registryUrl] });
    await new AvroCodec({ client }).prepare();
    // The events schema without its (required) id: data written before cannot be read with it.
    const events = AVRO_SCHEMAS[TOPICS.events] as { fields: { name: string }[] };
    const breaking = {
      ...events,
      fields: events.fields.filter((f) => f.name !== 'id').concat([{ name: 'renamedId', type: 'string' } as { name: string }]),
    };
    await expect(new AvroCodec({ client, schemas: { [TOPICS.events]: breaking } }).prepare()).rejects.toBeInstanceOf(
      SchemaCompatibilityError,
    );
  }, 120_000);

  it('kill -9 mid-stream and restart: every tick in ClickHouse exactly once, the board and active opportunities equal to an uninterrupted run; two API processes serve identical /odds', async () => {
    const raw = recordedInput(T0);
    const expected = uninterrupted(raw, Date.now(), { bookScopes: tierBookScopes() });
    const bus = registryBus();
    const store = new ClickHouseStore({ url: clickhouseUrl, username: 'odds', password: 'odds' });
    const apis: ReturnType<typeof spawnEntry>[] = [];
    try {
      const first = await startPipelineProcess();
      await killMidStream(bus, raw, first, 120_000);
      const second = await startPipelineProcess();
      await idle([second.url], 300_000);

      const stored = (await store.query<Record<string, unknown>>(`SELECT ${STORED_TICK_COLUMNS} FROM odds_ticks FINAL`)).map((r) =>
        storedTickIdentity(r),
      );
      expect(stored.length).toBe(expected.ticks.size);
      expect(new Set(stored)).toEqual(expected.ticks);
      const onBus = await changelogOutcome(bus);
      expect(onBus.board).toEqual(expected.board);
      expect(onBus.opportunities).toEqual(expected.opportunities);

      const urls: string[] = [];
      for (const id of ['replica-a', 'replica-b']) {
        const child = spawnEntry({
          ...serverEnv(),
          ROLE: 'api',
          DATA_DIR: dataDir(),
          API_REPLICA_ID: id,
          API_KEYS: 'enterprise:stack-test-key',
        });
        apis.push(child);
        const [, url] = await waitForOutput(child, /Odds platform API: (http:\/\/[0-9.:]+)\/api\/v1/, 180_000);
        urls.push(url ?? '');
      }
      const bodies = await settledOdds(urls, 'stack-test-key', 120_000);
      expect(bodies[0]).toBe(bodies[1]);
      second.child.kill('SIGTERM');
      expect((await exited(second.child)).code).toBe(0);
    } finally {
      for (const c of apis) {
        c.kill('SIGTERM');
        await exited(c).catch(() => undefined);
      }
      await bus.close();
      await store.close();
    }
  }, 900_000);
});
