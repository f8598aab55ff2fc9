/**
 * `make chaos` (docs/chaos.md): the Kafka runtime on librdkafka's mock cluster, two pipeline
 * processes and two API processes, the simulator's ticks produced by this driver (so it knows
 * every tick it must find stored), stream clients and delta pollers moving between the API
 * replicas, and a paced REST load. Every CHAOS_KILL_EVERY_SECONDS a random process is killed
 * with SIGKILL and started again. At the end the feed stops, the pipelines drain, and the run
 * fails (exit 1, one line per failure) unless every tick is stored once, every client's mirror
 * equals `/odds` on both replicas and no answer was a 5xx other than 503 with Retry-After.
 *
 * Environment: CHAOS_SECONDS (300), CHAOS_KILL_EVERY_SECONDS (30), CHAOS_TICKS_PER_SECOND (40),
 * CHAOS_STORE (`chdb`, each pipeline's embedded store; `server`, the development store server for
 * every process, with the store outage window: docs/chaos.md).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LEAGUES, TOPICS } from '../schemas/index.js';
import type { RawTick } from '../schemas/index.js';
import { KafkaBus, NO_BATCH } from '../pipeline/bus/index.js';
import { ManualClock } from '../pipeline/clock.js';
import { MarketSimulator } from '../pipeline/feeds/simulator/index.js';
import { startMockKafka } from '../test/support/mock-kafka.js';
import {
  ChangelogFollower,
  compareWithFold,
  deletedHeads,
  foldDiffLine,
  foldOddsChangelog,
  servedPrices,
} from '../test/support/changelog-fold.js';
import { STORED_TICK_COLUMNS, storedTickIdentity, uninterrupted } from '../test/support/uninterrupted.js';
import { CHAOS_OPERATOR_TOKEN, ChaosProcess, freePort } from './chaos-processes.js';
import { ChaosCounters, DeltaPoller, StreamClient, oddsBoard, restLoad, sameRows } from './chaos-clients.js';
import type { ReplicaView } from './chaos-clients.js';
import { sessionsAcrossReplicas } from './chaos-sessions.js';
import { chaosFailures, chaosTable, stagesBehind } from './chaos-verdict.js';
import { commandSwitch, storeOutage, storeOutagePlan } from './chaos-store-outage.js';
import type { StoreSwitch } from './chaos-store-outage.js';
import type { OutageFinding } from './chaos-store-outage.js';
import { ClickHouseStore } from '../pipeline/store/index.js';
import { redisServerBinary, startRedisServer } from '../test/support/redis-server.js';
import type { RedisServer } from '../test/support/redis-server.js';
import type { ChaosFindings, StageLags } from './chaos-verdict.js';

const env = process.env;
const seconds = Number(env['CHAOS_SECONDS'] ?? 300);
const killEverySeconds = Number(env['CHAOS_KILL_EVERY_SECONDS'] ?? 30);
// librdkafka's mock cluster keeps about 5 MB a partition and does not compact: at 100 ticks/s a
// 300-s run outgrew it in odds.snapshot's busiest partition, and a replica reloaded after that
// lacked the rows whose last records were gone (docs/chaos.md). 40 stays inside it.
const ticksPerSecond = Number(env['CHAOS_TICKS_PER_SECOND'] ?? 40);
for (const [name, value] of [
  ['CHAOS_SECONDS', seconds],
  ['CHAOS_KILL_EVERY_SECONDS', killEverySeconds],
  ['CHAOS_TICKS_PER_SECOND', ticksPerSecond],
] as const) {
  if (!Number.isFinite(value) || value <= 0) {
    process.stderr.write(`chaos: ${name} must be a positive number\n`);
    process.exit(2);
  }
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STREAM_KEY = 'chaos-stream-key';
const DELTA_KEY = 'chaos-delta-key';
const REST_KEY = 'chaos-rest-key';
const storeMode = env['CHAOS_STORE'] ?? 'chdb';
if (storeMode !== 'chdb' && storeMode !== 'server') {
  process.stderr.write(`chaos: CHAOS_STORE must be chdb or server, got ${JSON.stringify(storeMode)}\n`);
  process.exit(2);
}
if (storeMode === 'server' && env['CLICKHOUSE_URL']) {
  process.stderr.write('chaos: CHAOS_STORE=server starts a store server of its own: unset CLICKHOUSE_URL\n');
  process.exit(2);
}
/** The store outage window runs only against a ClickHouse server that can be stopped (bench/chaos-store-outage.ts). */
const outagePlan = storeOutagePlan(env);

/**
 * The ClickHouse server every process uses (CLICKHOUSE_URL, or the development store server of
 * CHAOS_STORE=server), in a database of this run's own (made at the start, dropped at the end),
 * so rows of an earlier run never count as unexpected.
 */
interface ServerStore {
  url: string;
  username: string;
  password: string;
  database: string;
}

const log = (line: string): void => {
  process.stdout.write(`${line}\n`);
};
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function produce(bus: KafkaBus, raw: readonly RawTick[]): Promise<void> {
  const producer = bus.producer();
  for (let i = 0; i < raw.length; i += 250) {
    await producer.send(
      TOPICS.rawTicks,
      raw.slice(i, i + 250).map((t) => ({ key: `${t.book}:${t.bookEventId}`, partitionKey: t.league, value: t })),
      NO_BATCH,
    );
  }
}

async function operatorJson<T>(url: string): Promise<T | null> {
  try {
    const res = await fetch(url, { headers: { authorization: `Bearer ${CHAOS_OPERATOR_TOKEN}` }, signal: AbortSignal.timeout(10_000) });
    return (await res.json()) as T;
  } catch {
    return null;
  }
}

/**
 * Every pipeline process answered lag 0 four times in a row (null), or `timeoutMs` passed: the
 * lags last read, each with the stages behind and the partitions they hold (its `/stats`), so a
 * drain that never ends names the group that does not commit.
 */
async function drained(pipelines: readonly ChaosProcess[], timeoutMs: number): Promise<string | null> {
  const end = Date.now() + timeoutMs;
  let calm = 0;
  let lags: (number | undefined)[] = [];
  while (calm < 4) {
    if (Date.now() > end) {
      const stats = await Promise.all(pipelines.map((p) => operatorJson<StageLags>(`${p.url}/stats`)));
      return pipelines.map((p, i) => `${p.name} lag ${String(lags[i] ?? 'unread')}: ${stagesBehind(stats[i] ?? null)}`).join('; ');
    }
    lags = await Promise.all(pipelines.map(async (p) => (await operatorJson<{ lag: number }>(`${p.url}/health`))?.lag));
    calm = lags.every((l) => l === 0) ? calm + 1 : 0;
    await sleep(500);
  }
  return null;
}

/** Both replicas' full `/odds`, read until they agree (null) or `timeoutMs` passed (why not). */
async function replicasAgree(counters: ChaosCounters, apis: readonly ChaosProcess[], timeoutMs: number): Promise<string | null> {
  const end = Date.now() + timeoutMs;
  let why = 'never read';
  do {
    const [a, b] = await Promise.all(apis.map((p) => oddsBoard(counters, p.url, '', REST_KEY)));
    if (a && b) {
      const d = sameRows(a.rows, b.rows);
      if (d.differingCount === 0 && d.extraCount === 0 && a.rows.size > 0) return null;
      // sameRows(held, truth): `differing` are api-b's rows api-a lacks or holds otherwise, `extra` api-a's rows api-b lacks.
      why = `${d.differingCount} of ${apis[1]?.name}'s rows are missing or different on ${apis[0]?.name} (e.g. ${d.differing.join(', ')}), and ${apis[0]?.name} has ${d.extraCount} rows ${apis[1]?.name} lacks (e.g. ${d.extra.join(', ')}), of ${a.rows.size}`;
    } else why = 'a replica did not answer /odds';
    await sleep(2000);
  } while (Date.now() < end);
  return why;
}

/**
 * Each replica's full `/odds` against a fresh fold of `odds.snapshot` from offset 0, read after it
 * (the feed has stopped and the pipelines drained, so nothing moves meanwhile): what it lacks,
 * serves wrongly or serves in place of a removal, with the first keys and their last offsets. A
 * row the log no longer has is looked up in `follower`, which read the topic from the run's start:
 * its last record deleted by the cluster (librdkafka's mock cluster keeps about 5 MB a partition
 * and does not compact), or never written.
 */
async function boardsAgainstChangelog(
  counters: ChaosCounters,
  bus: KafkaBus,
  apis: readonly ChaosProcess[],
  follower: ChangelogFollower,
): Promise<Pick<ChaosFindings, 'againstChangelog' | 'deletedHeads'>> {
  await follower.caughtUp();
  const boards = await Promise.all(apis.map((p) => oddsBoard(counters, p.url, '', REST_KEY)));
  const fold = await foldOddsChangelog(bus);
  const againstChangelog = apis.map((p, i) => {
    const board = boards[i];
    if (!board) return { replica: p.name, wrong: '/odds unreadable', deleted: 0 };
    const diff = compareWithFold(servedPrices(board.rows), fold, follower.rows);
    return { replica: p.name, wrong: diff.missing + diff.extra + diff.differing === 0 ? null : foldDiffLine(diff), deleted: diff.deleted };
  });
  return { againstChangelog, deletedHeads: deletedHeads(fold) };
}

/** The identities of every row of `odds_ticks` in one pipeline's store, duplicates kept (no FINAL). */
function storedTicks(dir: string): Promise<string[]> {
  const sql = `SELECT ${STORED_TICK_COLUMNS} FROM odds_ticks`;
  return new Promise((resolve, reject) => {
    // chDB binds one data directory per process: each store is read by a child of its own.
    const child = spawn(process.execPath, [...process.execArgv, 'test/support/chdb-query.ts', join(dir, 'chdb'), sql], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`reading ${dir}'s odds_ticks failed: ${err.slice(0, 500)}`));
      const rows = JSON.parse(out) as Record<string, unknown>[];
      resolve(rows.map((r) => storedTickIdentity(r)));
    });
  });
}

/** The identities of every row of `odds_ticks` in the run's database on the ClickHouse server, duplicates kept. */
async function storedTicksOnServer(s: ServerStore): Promise<string[]> {
  const store = new ClickHouseStore(s);
  try {
    const rows = await store.query<Record<string, unknown>>(`SELECT ${STORED_TICK_COLUMNS} FROM odds_ticks`);
    return rows.map((r) => storedTickIdentity(r));
  } finally {
    await store.close();
  }
}

async function main(): Promise<number> {
  const base = mkdtempSync(join(tmpdir(), 'odds-chaos-'));
  const kafka = await startMockKafka();
  const brokers = kafka.brokers.join(',');
  // Sessions live in Redis, so the replicas need no stickiness (checked at the end).
  const redisBinary = redisServerBinary();
  const redis: RedisServer | null = 'path' in redisBinary ? await startRedisServer(redisBinary.path) : null;
  const database = `odds_chaos_${Date.now()}`;
  // Supervised like the others, and stopped and started (SIGTERM, as `docker compose stop`) for the outage window.
  const storeServer =
    storeMode === 'server' ? new ChaosProcess('store', 'store', await freePort(), { DATA_DIR: join(base, 'store') }) : null;
  const server: ServerStore | null = storeServer
    ? { url: storeServer.url, username: 'default', password: '', database }
    : env['CLICKHOUSE_URL']
      ? { url: env['CLICKHOUSE_URL'], username: env['CLICKHOUSE_USER'] ?? 'default', password: env['CLICKHOUSE_PASSWORD'] ?? '', database }
      : null;
  const storeSwitch: StoreSwitch | null = !outagePlan.run
    ? null
    : outagePlan.by === 'commands'
      ? commandSwitch(outagePlan.stop, outagePlan.start)
      : storeServer;
  const common = {
    KAFKA_BROKERS: brokers,
    KAFKA_SESSION_TIMEOUT_MS: '6000',
    LOG_LEVEL: 'warn',
    ...(server
      ? {
          CLICKHOUSE_URL: server.url,
          CLICKHOUSE_USER: server.username,
          CLICKHOUSE_PASSWORD: server.password,
          CLICKHOUSE_DATABASE: server.database,
        }
      : {}),
  };
  const pipelines = await Promise.all(
    ['pipeline-a', 'pipeline-b'].map(
      async (name) =>
        new ChaosProcess(name, 'pipeline', await freePort(), {
          ...common,
          ROLE: 'pipeline',
          FEED: 'none',
          DATA_DIR: join(base, name),
          SINK_MAX_WAIT_MS: '100',
          METRICS_TOKEN: CHAOS_OPERATOR_TOKEN,
        }),
    ),
  );
  const apis = await Promise.all(
    ['api-a', 'api-b'].map(
      async (name) =>
        new ChaosProcess(name, 'api', await freePort(), {
          ...common,
          ROLE: 'api',
          DATA_DIR: join(base, name),
          API_REPLICA_ID: name,
          API_KEYS: `enterprise:${STREAM_KEY},enterprise:${DELTA_KEY},enterprise:${REST_KEY}`,
          // Replicas behind one balancer share one public address, so their deep links are the same.
          PUBLIC_BASE_URL: 'https://odds.example.test',
          STREAM_HEARTBEAT_SECONDS: '5',
          MAX_CONNECTIONS_PER_ADDRESS: '1000',
          ...(redis ? { REDIS_URL: redis.url } : {}),
        }),
    ),
  );
  const all = [...pipelines, ...apis];
  // A process the supervisor gave up on (it exited on its own and could not be started again)
  // ends the run: the rest of it would measure a system without it.
  const supervised = [...all, ...(storeServer ? [storeServer] : [])];
  const gaveUp = (): string[] => supervised.flatMap((p) => (p.gaveUp === null ? [] : [p.gaveUp]));
  const givenUp = new Promise<void>((resolve) => {
    for (const p of supervised)
      p.onGiveUp((reason) => {
        log(`  the supervisor gave up: ${reason}; the run ends`);
        resolve();
      });
  });
  /** Sleeps `ms`, or less when the supervisor gives up meanwhile. */
  const nap = (ms: number): Promise<void> => Promise.race([sleep(ms), givenUp]);
  const bus = new KafkaBus({ brokers: kafka.brokers, sessionTimeoutMs: 6000 });
  const counters = new ChaosCounters();
  const replicas = (): readonly ReplicaView[] => apis;
  const streams: StreamClient[] = [];
  let loadStopped = false;
  try {
    if (storeServer) await storeServer.start();
    if (server) {
      const admin = new ClickHouseStore({ ...server, database: 'default' });
      await admin.exec(`CREATE DATABASE ${server.database}`).finally(() => admin.close());
    }
    for (const p of all) await p.start();
    log(
      `chaos: ${seconds} s, a kill every ${killEverySeconds} s, ${ticksPerSecond} ticks/s; processes up (${all.map((p) => p.url).join(' ')})${storeServer ? `, store server ${storeServer.url}` : ''}`,
    );

    // From before the first record: it sees what the cluster may delete later (boardsAgainstChangelog).
    const follower = new ChangelogFollower(bus);
    const clock = new ManualClock(Date.now());
    const leagues = LEAGUES.filter((l) => ['nba', 'nhl', 'nfl', 'epl'].includes(l.id));
    const sim = new MarketSimulator({ seed: 36, clock, eventsPerLeague: 2, suspensionsPerMinute: 60, catalog: { leagues } });
    const raw: RawTick[] = sim.snapshot();
    await produce(bus, raw);
    let feeding = true;
    const feed = (async () => {
      while (feeding) {
        await sleep(1000);
        clock.set(Date.now());
        const ticks = sim.step(Date.now(), ticksPerSecond);
        raw.push(...ticks);
        await produce(bus, ticks);
      }
    })();

    // The clients start once a replica serves a board.
    const boardBy = Date.now() + 120_000;
    while (((await oddsBoard(counters, apis[0]?.url ?? '', '', REST_KEY))?.rows.size ?? 0) === 0) {
      if (Date.now() > boardBy) throw new Error(`no board on ${apis[0]?.name} within 120 s: ${apis[0]?.tail()}`);
      await sleep(1000);
    }
    const queries = ['', 'league=nba', 'league=epl'];
    for (let i = 0; i < 6; i++) {
      const client = new StreamClient(i % 2 === 0 ? 'sse' : 'ws', queries[i % 3] ?? '', STREAM_KEY, replicas, counters, i % 2);
      streams.push(client);
      client.open();
    }
    const pollers = [new DeltaPoller(DELTA_KEY, replicas, counters), new DeltaPoller(DELTA_KEY, replicas, counters)];
    const polling = pollers.map(async (p) => {
      while (!loadStopped) {
        await p.poll();
        await sleep(1000);
      }
    });
    const rest = restLoad(counters, replicas, REST_KEY, 200, () => loadStopped);
    // Clients also move on their own, so a move between live replicas is measured, not only after a kill.
    const hangUps = setInterval(() => streams[Math.floor(Math.random() * streams.length)]?.hangUp(), 15_000);

    const kills = { pipeline: 0, api: 0 };
    const deadline = Date.now() + seconds * 1000;
    let outage: OutageFinding | null = null;
    while (gaveUp().length === 0 && Date.now() + killEverySeconds * 1000 <= deadline) {
      await nap(killEverySeconds * 1000);
      if (gaveUp().length > 0) break;
      // Once, from the middle of the run on: the store's outage window instead of a kill.
      if (outagePlan.run && storeSwitch && outage === null && Date.now() >= deadline - (seconds * 1000) / 2) {
        log(`  ${Math.round((deadline - Date.now()) / 1000)} s left: the store stops for ${outagePlan.seconds} s`);
        outage = await storeOutage(outagePlan.seconds, storeSwitch, async () => {
          const [health, pipelineHealth] = await Promise.all([
            Promise.all(apis.map((p) => operatorJson<{ status: string }>(`${p.url}/api/v1/health`))),
            Promise.all(pipelines.map((p) => operatorJson<{ status: string; lag: number }>(`${p.url}/health`))),
          ]);
          return {
            health: health.map((h) => h?.status ?? null),
            pipelineHealth: pipelineHealth.map((h) => h?.status ?? null),
            lags: pipelineHealth.map((h) => h?.lag ?? null),
          };
        });
        continue;
      }
      const victim = all[Math.floor(Math.random() * all.length)] as (typeof all)[number];
      await victim.kill();
      kills[victim.role]++;
      log(`  ${Math.round((deadline - Date.now()) / 1000)} s left: killed ${victim.name} (kill -9), restarting`);
      await victim.start();
    }
    await nap(Math.max(0, deadline - Date.now()));

    log(
      gaveUp().length === 0 ? 'chaos: feed stopped; draining' : 'chaos: feed stopped; the run ended early, the checks run on what is left',
    );
    feeding = false;
    await feed;
    clearInterval(hangUps);
    const endedEarly = gaveUp().length > 0;
    const notDrained = endedEarly ? null : await drained(pipelines, 180_000);
    const agree = endedEarly
      ? 'not compared: the run ended early (the supervisor gave up on a process)'
      : notDrained === null
        ? await replicasAgree(counters, apis, 120_000)
        : `the pipelines did not drain within 180 s (${notDrained})`;
    // A third reader says which side of a disagreement is wrong: each replica against the log itself.
    const changelog = await boardsAgainstChangelog(counters, bus, apis, follower);
    await follower.stop();
    loadStopped = true;
    await Promise.all([rest, ...polling]);

    // Streams: every client must hear a heartbeat sent after this point, so all before it reached it.
    const since = Date.now();
    const heardBy = since + 60_000;
    while (Date.now() < heardBy && gaveUp().length === 0 && streams.some((s) => s.lastHeartbeat <= since)) await sleep(200);
    const streamOutOfStep: string[] = [];
    const deltaOutOfStep: string[] = [];
    for (const p of pollers) p.retries = 10;
    for (const api of apis) {
      for (const s of streams.filter((c) => c.lastHeartbeat > since)) {
        const truth = await oddsBoard(counters, api.url, s.query, STREAM_KEY);
        const d = truth ? s.mirror.diff(truth.rows) : null;
        if (d === null || d.differingCount + d.extraCount > 0)
          streamOutOfStep.push(
            `${s.kind} '${s.query}' vs ${api.name}: ${d ? `${d.differingCount} differing (${d.differing.join(', ')}), ${d.extraCount} extra` : '/odds unreadable'}`,
          );
      }
      for (const [i, p] of pollers.entries()) {
        const polled = await p.poll(apis.indexOf(api));
        const truth = await oddsBoard(counters, api.url, '', DELTA_KEY);
        const d = polled && truth ? sameRows(p.rows, truth.rows) : null;
        if (d === null || d.differingCount + d.extraCount > 0)
          deltaOutOfStep.push(
            `poller ${i} on ${api.name}: ${d ? `${d.differingCount} differing (${d.differing.join(', ')}), ${d.extraCount} extra` : 'not answered'}`,
          );
      }
    }
    for (const s of streams) s.stop();

    const [apiA, apiB] = apis as [ChaosProcess, ChaosProcess];
    const sessions: ChaosFindings['sessions'] =
      gaveUp().length > 0
        ? { verdict: 'not run', line: 'not run: the run ended early (the supervisor gave up on a process)' }
        : redis
          ? await sessionsAcrossReplicas(apiA, apiB, REST_KEY).then(
              (line) => ({ verdict: 'held' as const, line }),
              (e: unknown) => ({ verdict: 'failed' as const, line: e instanceof Error ? e.message : String(e) }),
            )
          : { verdict: 'not run', line: 'missing' in redisBinary ? redisBinary.missing : '' };

    for (const p of [...apis, ...pipelines]) await p.stop();
    const stored = server
      ? await storedTicksOnServer(server)
      : (await Promise.all(pipelines.map((p) => storedTicks(join(base, p.name))))).flat();
    const expected = uninterrupted(raw, Date.now()).ticks;
    const storedSet = new Set(stored);
    const findings: ChaosFindings = {
      seconds,
      kills,
      selfExits: supervised.flatMap((p) => p.selfExits),
      gaveUp: gaveUp(),
      stageFailures: all.flatMap((p) => p.stageFailures),
      storeWaits: pipelines.flatMap((p) => p.storeWaits),
      storeOutage: outagePlan.run
        ? (outage ?? { line: 'not run: the run ended before its middle', failure: null })
        : { line: outagePlan.why, failure: null },
      sessions,
      ticks: {
        produced: raw.length,
        expected: expected.size,
        storedRows: stored.length,
        storedDistinct: storedSet.size,
        missing: [...expected].filter((t) => !storedSet.has(t)).length,
        unexpected: [...storedSet].filter((t) => !expected.has(t)).length,
      },
      streams: {
        clients: streams.length,
        reconnects: { ...counters.reconnects },
        resumed: { ...counters.resumed },
        replayedFrames: counters.replayedFrames,
        outOfStep: streamOutOfStep,
        notHeard: streams.filter((s) => s.lastHeartbeat <= since).length,
      },
      orderViolations: counters.orderViolations,
      delta: { pollers: pollers.length, polls: counters.deltaPolls, outOfStep: deltaOutOfStep },
      resyncs: counters.resyncs,
      http: counters.status,
      fiveXxExamples: counters.fiveXxExamples,
      replicasAgree: agree,
      ...changelog,
    };
    log(chaosTable(findings));
    const failures = chaosFailures(findings);
    if (failures.length === 0) {
      log('chaos: PASS');
      return 0;
    }
    log(`chaos: FAIL\n${failures.map((f) => `  - ${f}`).join('\n')}`);
    return 1;
  } finally {
    loadStopped = true;
    for (const s of streams) s.stop();
    for (const p of all) await p.kill();
    await bus.close();
    kafka.stop();
    await redis?.stop();
    if (server) {
      const admin = new ClickHouseStore({ ...server, database: 'default' });
      await admin
        .exec(`DROP DATABASE IF EXISTS ${server.database}`)
        .catch(() => undefined)
        .finally(() => admin.close());
    }
    await storeServer?.stop();
    rmSync(base, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`chaos: the run could not complete: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
