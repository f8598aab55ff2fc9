import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

/** The repository root, for spawning the real entry from tests. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Exited {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Every entry a test file started and that has not exited. A failed assertion skips the test's
 * own stop: these are killed after the file (and if the test worker itself exits), so no pipeline
 * process outlives its test run.
 */
const running = new Set<ChildProcess>();
const killAll = (): void => {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
};
afterAll(killAll);
process.once('exit', killAll);

/**
 * Starts `runtime/main.ts`, or another `entry` (through tsx), with the given environment; nothing inherited but PATH,
 * and PIPELINE_THREAD, which runs the whole-system suites with the pipeline in a worker (as
 * `startTestSystem` does in process).
 */
export function spawnEntry(
  env: Record<string, string>,
  entry = 'runtime/main.ts',
): ChildProcess & { output: { stdout: string; stderr: string } } {
  const thread = process.env['PIPELINE_THREAD'];
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: ROOT,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      ...(thread ? { PIPELINE_THREAD: thread } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (c: Buffer) => (output.stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output.stderr += c.toString()));
  return Object.assign(child, { output });
}

export function exited(child: ReturnType<typeof spawnEntry>, timeoutMs = 60_000): Promise<Exited> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`entry did not exit within ${timeoutMs} ms; stderr: ${child.output.stderr.slice(0, 500)}`));
    }, timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      // Let the pipes flush what the process wrote last.
      setImmediate(() => resolve({ code, signal, ...child.output }));
    });
  });
}

/** Resolves with the first stdout match of `pattern` (the entry prints its URL when ready). */
export function waitForOutput(child: ReturnType<typeof spawnEntry>, pattern: RegExp, timeoutMs = 60_000): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const end = Date.now() + timeoutMs;
    const poll = (): void => {
      const m = pattern.exec(child.output.stdout);
      if (m) return resolve(m);
      if (child.exitCode !== null)
        return reject(new Error(`entry exited (${child.exitCode}) before ${pattern}: ${child.output.stderr.slice(0, 800)}`));
      if (Date.now() > end) return reject(new Error(`no ${pattern} within ${timeoutMs} ms: ${child.output.stderr.slice(0, 800)}`));
      setTimeout(poll, 50);
    };
    poll();
  });
}
