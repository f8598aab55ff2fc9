import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer, connect } from 'node:net';

/** Debian package `redis-server`; null with the reason when the binary is not installed. */
export function redisServerBinary(): { path: string } | { missing: string } {
  const which = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  const path = which.stdout.trim();
  return path ? { path } : { missing: 'redis-server not installed (apt-get install -y redis-server)' };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

export interface RedisServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** A throwaway redis-server on 127.0.0.1 and a free port, without persistence. */
export async function startRedisServer(binary: string): Promise<RedisServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'],
    { stdio: 'ignore' },
  );
  const deadline = Date.now() + 10_000;
  while (!(await accepting(port))) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`redis-server did not start on port ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
