import { fork } from 'node:child_process';
import type { ForkOptions } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Runs a bench script (`script`, relative to this directory's compiled files) in a child process
 * and resolves to the last message it sent before exiting; rejects when it exits without one.
 * For sections measured apart from the bench's own heap or with other V8 flags.
 */
export function childResult<T>(script: string, args: readonly string[], options: ForkOptions = {}): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL(script, import.meta.url)), [...args], options);
    let result: { value: T } | null = null;
    child.on('message', (m) => (result = { value: m as T }));
    child.on('error', reject);
    child.on('exit', (code) =>
      result
        ? resolve(result.value)
        : reject(new Error(`bench/${script} ${args.join(' ')} exited with ${String(code)} before sending its result`)),
    );
  });
}
