import { closeSync, constants, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync, accessSync } from 'node:fs';
import { join } from 'node:path';
import { TIER_NAMES } from '../schemas/index.js';
import { StartupError } from './startup-error.js';

function code(e: unknown): string {
  return (e as NodeJS.ErrnoException).code ?? (e instanceof Error ? e.message : String(e));
}

/** DATA_DIR must be a directory this process can write: checked before anything opens in it. */
export function prepareDataDir(dir: string): void {
  try {
    if (!statSync(dir).isDirectory()) throw new StartupError(`DATA_DIR ${dir} is not a directory`);
  } catch (e) {
    if (e instanceof StartupError) throw e;
    try {
      mkdirSync(dir, { recursive: true });
    } catch (m) {
      throw new StartupError(`DATA_DIR ${dir} cannot be created (${code(m)})`);
    }
  }
  const probe = join(dir, `.write-probe-${process.pid}`);
  try {
    accessSync(dir, constants.W_OK);
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
  } catch (e) {
    throw new StartupError(`DATA_DIR ${dir} is not writable (${code(e)})`);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface DataDirLock {
  release(): void;
}

/**
 * One process per data directory (chDB and the demo keys are not shared): `DATA_DIR/instance.lock`
 * holds the owner's pid. A lock whose process is gone (killed) is taken over.
 */
export function lockDataDir(dir: string): DataDirLock {
  const file = join(dir, 'instance.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return {
        release: () => {
          try {
            if (readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file, { force: true });
          } catch {
            // already gone
          }
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new StartupError(`DATA_DIR ${dir}: cannot create ${file} (${code(e)})`);
      const owner = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner)) {
        throw new StartupError(`DATA_DIR ${dir} is in use by another instance (pid ${owner}, ${file}); give each process its own DATA_DIR`);
      }
      rmSync(file, { force: true });
    }
  }
  throw new StartupError(`DATA_DIR ${dir}: could not take ${file}`);
}

/**
 * A demo-key file that exists must be one we wrote: a damaged or hand-edited file stops the start
 * (naming the file) instead of being silently replaced with new keys.
 */
export function checkDemoKeysFile(dir: string): void {
  const file = join(dir, 'demo-keys.json');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new StartupError(`${file} cannot be read (${code(e)})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new StartupError(`${file} is not valid JSON: fix it, or delete it to make new demo keys`);
  }
  const ok =
    typeof parsed === 'object' &&
    parsed !== null &&
    !Array.isArray(parsed) &&
    TIER_NAMES.every(
      (t) => typeof (parsed as Record<string, unknown>)[t] === 'string' && ((parsed as Record<string, string>)[t] ?? '').length >= 8,
    );
  if (!ok)
    throw new StartupError(
      `${file} must map each tier (${TIER_NAMES.join(', ')}) to a key of 8+ characters: fix it, or delete it to make new demo keys`,
    );
}
