import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TOPIC_CONFIGS } from '../../schemas/index.js';

export interface MockKafka {
  brokers: string[];
  /** Whether the topics were created at the partition counts of `schemas/topics.ts` (else the broker auto-creates them at 4). */
  configuredPartitions: boolean;
  /** CPU seconds the cluster's process used so far (user + system; Linux, else NaN): the bench's broker cost. */
  cpuSeconds(): number;
  /**
   * Makes the cluster answer the next `count` requests of Kafka API `apiKey` (from any client)
   * with error `code`, as a broker refusing them would. Only on the cluster with configured
   * topics (librdkafka's mock API).
   */
  refuseNext(apiKey: number, code: number, count: number): Promise<void>;
  stop(): void;
}

/** Kafka API keys and error codes the tests make the mock cluster answer with. */
export const KAFKA_API = { OffsetCommit: 8, Heartbeat: 12, SyncGroup: 14 } as const;
export const KAFKA_ERROR = { REBALANCE_IN_PROGRESS: 27, INVALID_REQUEST: 42 } as const;

/** Why Kafka tests cannot run here, or null when kcat (librdkafka's mock cluster) is available. */
export function mockKafkaUnavailable(): string | null {
  const probe = spawnSync('kcat', ['-V'], { encoding: 'utf8' });
  return probe.error ? 'kcat is not installed (Debian package kcat; `make test` installs it when it can)' : null;
}

// Beside this file, also when it runs compiled from dist/test/support (the bench).
const HELPER =
  ['./mock-kafka.py', '../../../test/support/mock-kafka.py']
    .map((p) => fileURLToPath(new URL(p, import.meta.url)))
    .find((p) => existsSync(p)) ?? 'mock-kafka.py';

/** Why topics cannot be created at their configured counts (python3 or librdkafka missing), or null. */
function configuredTopicsUnavailable(): string | null {
  const probe = spawnSync(
    'python3',
    ['-c', 'import ctypes, ctypes.util; ctypes.CDLL(ctypes.util.find_library("rdkafka") or "librdkafka.so.1").rd_kafka_mock_topic_create'],
    { encoding: 'utf8' },
  );
  if (probe.error) return 'python3 is not installed';
  return probe.status === 0 ? null : `librdkafka's mock API is not loadable from python3: ${probe.stderr.trim().split('\n').pop() ?? ''}`;
}

let warned = false;

/**
 * A real Kafka-protocol broker in process: librdkafka's mock cluster, listening on 127.0.0.1; it
 * lives until `stop`. By default every topic of `schemas/topics.ts` exists before the first
 * client connects, at its configured partition count, as an operator's cluster would have them
 * (created through librdkafka's mock API, `mock-kafka.py`). `autoCreate: true` starts the bare
 * cluster through kcat instead: it refuses CreateTopics and creates every topic on first use at
 * 4 partitions, like a broker with `auto.create.topics.enable`.
 */
export async function startMockKafka(options: { autoCreate?: boolean } = {}): Promise<MockKafka> {
  const why = options.autoCreate ? 'asked for' : configuredTopicsUnavailable();
  if (why && !options.autoCreate && !warned) {
    warned = true;
    console.warn(`mock Kafka: topics auto-created at 4 partitions, not at their configured counts: ${why}`);
  }
  const child = why
    ? spawn('kcat', ['-b', 'localhost:1', '-C', '-t', 'keepalive', '-X', 'test.mock.num.brokers=1', '-d', 'mock'], {
        stdio: ['ignore', 'ignore', 'pipe'],
      })
    : spawn('python3', [HELPER, ...Object.entries(TOPIC_CONFIGS).map(([topic, c]) => `${topic}=${c.partitions}`)], {
        stdio: ['pipe', 'ignore', 'pipe'],
      });
  // Whatever happens to the caller (a failed test skipping its stop, a bench that throws), the
  // cluster goes with this process.
  const kill = (): void => {
    child.kill('SIGKILL');
  };
  process.once('exit', kill);
  child.once('exit', () => process.removeListener('exit', kill));
  const acknowledged: (() => void)[] = [];
  const bootstrap = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => {
      kill();
      reject(new Error(`mock cluster did not start: ${seen.slice(0, 500)}`));
    }, 10_000);
    child.stderr.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const m = /bootstrap\.servers=(127\.0\.0\.1:\d+)/.exec(seen);
      if (m?.[1]) {
        clearTimeout(timer);
        child.stderr.removeAllListeners('data');
        child.stderr.on('data', (more: Buffer) => {
          for (const _ of more.toString().matchAll(/^pushed$/gm)) acknowledged.shift()?.();
        });
        resolve(m[1]);
      }
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
  const cpuSeconds = (): number => {
    try {
      // utime and stime, fields 14 and 15 of /proc/PID/stat, in clock ticks (100 per second on Linux).
      const fields =
        readFileSync(`/proc/${child.pid ?? 0}/stat`, 'utf8')
          .split(') ')[1]
          ?.split(' ') ?? [];
      return (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      return Number.NaN;
    }
  };
  const refuseNext = (apiKey: number, code: number, count: number): Promise<void> => {
    const stdin = child.stdin;
    if (why !== null || !stdin) return Promise.reject(new Error(`the mock cluster cannot refuse requests: ${why ?? 'no control pipe'}`));
    return new Promise<void>((resolve) => {
      acknowledged.push(resolve);
      stdin.write(`errors ${apiKey} ${code} ${count}\n`);
    });
  };
  return { brokers: [bootstrap], configuredPartitions: why === null, cpuSeconds, refuseNext, stop: kill };
}
