import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Bare clones made during one `make data` run, one per repository however many recordings use it. */
export interface GitClones {
  /** The git directory of a clone of `repository`; throws, naming it, when git cannot clone it. */
  cloneOf(repository: string): string;
  /** Removes every clone. */
  close(): void;
}

/** Runs git without a terminal prompt (an unreachable host must fail, not wait for a password). */
export function runGit(args: readonly string[]): { ok: true; stdout: string } | { ok: false; reason: string } {
  const result = spawnSync('git', args, {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
  });
  if (result.error) return { ok: false, reason: result.error.message };
  if (result.status !== 0) {
    const lines = result.stderr.trim().split('\n');
    return { ok: false, reason: lines[lines.length - 1] || `git exited with ${result.status}` };
  }
  return { ok: true, stdout: result.stdout };
}

export function gitClones(): GitClones {
  const root = mkdtempSync(join(tmpdir(), 'make-data-git-'));
  const clones = new Map<string, string | Error>();
  return {
    cloneOf(repository) {
      let clone = clones.get(repository);
      if (clone === undefined) {
        const into = join(root, String(clones.size));
        const result = runGit(['clone', '--quiet', '--bare', repository, into]);
        clone = result.ok ? into : new Error(`git clone failed: ${result.reason}`);
        clones.set(repository, clone);
      }
      if (clone instanceof Error) throw clone;
      return clone;
    },
    close() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}
