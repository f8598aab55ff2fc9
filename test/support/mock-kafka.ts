import { spawn, spawnSync } from 'node:child_process';

export interface MockKafka {
  brokers: string[];
  stop(): void;
}

/** Why Kafka tests cannot run here, or null when kcat (librdkafka's mock cluster) is available. */
export function mockKafkaUnavailable(): string | null {
  const probe = spawnSync('kcat', ['-V'], { encoding: 'utf8' });
  return probe.error ? 'kcat is not installed (Debian package kcat; `make test` installs it when it can)' : null;
}

/**
 * A real Kafka-protocol broker in process: librdkafka's mock cluster, started through kcat,
 * listening on 127.0.0.1. Topics are auto-created; it lives until `stop`.
 */
export async function startMockKafka(): Promise<MockKafka> {
  const child = spawn('kcat', ['-b', 'localhost:1', '-C', '-t', 'keepalive', '-X', 'test.mock.num.brokers=1', '-d', 'mock'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // Whatever happens to the caller (a failed test skipping its stop, a bench that throws), the
  // cluster goes with this process.
  const kill = (): void => {
    child.kill('SIGKILL');
  };
  process.once('exit', kill);
  child.once('exit', () => process.removeListener('exit', kill));
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
        child.stderr.resume();
        resolve(m[1]);
      }
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
  return { brokers: [bootstrap], stop: kill };
}
