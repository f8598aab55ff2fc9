/**
 * The processes `make chaos` runs and kills: each one the real entry (`runtime/main.ts`) in a
 * role, on a fixed port and its own DATA_DIR, so a restarted process comes back at the same
 * address with the same store, as a supervisor would restart it. With CHAOS_STORE=server the
 * store is one more: the development store server (`bench/store-server.ts`), stopped and started
 * for the store outage window.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export type Role = 'pipeline' | 'api' | 'store';

/** The operator token the pipeline processes' `/health` and `/stats` are read with. */
export const CHAOS_OPERATOR_TOKEN = 'chaos-operator-token';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Entries beside this file's tree: `runtime/main.ts` under tsx, `dist/runtime/main.js` from the build. */
const EXTENSION = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
const ENTRY: Record<Role, string> = {
  pipeline: fileURLToPath(new URL(`../runtime/main.${EXTENSION}`, import.meta.url)),
  api: fileURLToPath(new URL(`../runtime/main.${EXTENSION}`, import.meta.url)),
  store: fileURLToPath(new URL(`./store-server.${EXTENSION}`, import.meta.url)),
};

/** A port free right now on 127.0.0.1 (the OS picks it; the process is given it for every start). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

const READY: Record<Role, RegExp> = {
  pipeline: /Odds platform pipeline: http:\/\/[0-9.:]+\/health/,
  api: /Odds platform API: http:\/\/[0-9.:]+\/api\/v1/,
  store: /Store server: http:\/\/[0-9.:]+/,
};

/** The process's last logged error (pino JSON lines: the innermost message and what the process said of it). */
function lastError(output: string): string {
  const message = [...output.matchAll(/"message":"([^"]*)"/g)].pop()?.[1];
  const said = [...output.matchAll(/"msg":"([^"]*)"/g)].pop()?.[1];
  return [message, said].filter((x) => x !== undefined).join(': ') || output.trim().split('\n').pop() || 'no output';
}

/**
 * A logged stage failure as one line: the stage (or the group of a consumer that rejoins), what
 * the process did and why (the failure policy's `reason`, else the logged error's message).
 */
export function stageLine(line: string): string {
  const field = (name: string): string | undefined => new RegExp(`"${name}":"([^"]*)"`).exec(line)?.[1];
  return [field('stage') ?? field('groupId'), field('msg'), field('reason') ?? field('message')].filter((x) => x !== undefined).join(': ');
}

/** A sink's word on the store (it stopped answering, or answers again) as one line: the table and what it said. */
export function storeWaitLine(line: string): string {
  const table = /"table":"([^"]*)"/.exec(line)?.[1] ?? '?';
  const seconds = /"seconds":(\d+)/.exec(line)?.[1];
  return /"msg":"the store answers again"/.test(line) ? `${table} answered again after ${seconds ?? '?'} s` : `${table} stopped answering`;
}

/**
 * How long a supervisor keeps starting a process that exited on its own: the waits before each
 * start again, doubling from 1 s to 30 s (7 starts over about 91 s, plus the starts' own time).
 * A pipeline that exited during a store outage (a stage failed on the store, or it was killed)
 * cannot start until the store answers again (runtime/store.ts probes it first), so the restarts
 * must outlast what is left of the window; a process still unable to start after the last one ends
 * the run (`onGiveUp`).
 */
export const RESTART_DELAYS_MS: readonly number[] = [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000];
/** The first start, and a start after a kill, is tried three times a second apart (it is awaited: a failure ends the run there). */
const START_DELAYS_MS: readonly number[] = [1000, 1000];

export interface ChaosProcessOptions {
  /** The waits before each start again after the process exited on its own (RESTART_DELAYS_MS). */
  restartDelaysMs?: readonly number[];
  /** In place of the role's entry under this Node (tests: a process that exits at once). */
  command?: { file: string; args: readonly string[] };
}

/** A start that failed: `why` in a line for the table, the message with the process's last output. */
class LaunchFailure extends Error {
  constructor(
    readonly why: string,
    message: string,
  ) {
    super(message);
    this.name = 'LaunchFailure';
  }
}

/** One supervised process: started, killed with SIGKILL, started again in place. */
export class ChaosProcess<R extends Role = Role> {
  private child: ChildProcess | null = null;
  private output = '';
  /** Starts so far (1 after the first start); a restart is a new generation of the same replica. */
  generation = 0;
  readonly url: string;
  /** Why the process exited when nobody stopped it, one line each. */
  readonly selfExits: string[] = [];
  /**
   * Stages that failed or were started again, and consumers rejoined after their group refused
   * them, as the process logged them (a stage of an API replica's views that stops leaves the
   * replica serving a frozen board: it must show here).
   */
  readonly stageFailures: string[] = [];
  /** What the pipeline's sinks said of the store: when it stopped answering them and when it answered again. */
  readonly storeWaits: string[] = [];
  /**
   * Why the supervisor gave up on the process (it exited on its own and could not be started
   * again), or null. The run ends when it is set (bench/chaos.ts).
   */
  gaveUp: string | null = null;
  private readonly giveUpListeners = new Set<(reason: string) => void>();
  private expectedExit = false;
  private supervised = true;
  private ready: Promise<void> = Promise.resolve();

  constructor(
    readonly name: string,
    readonly role: R,
    private readonly port: number,
    private readonly env: Record<string, string>,
    private readonly options: ChaosProcessOptions = {},
  ) {
    this.url = `http://127.0.0.1:${port}`;
  }

  /** Calls `listener` once, with the reason, if the supervisor gives up on the process. */
  onGiveUp(listener: (reason: string) => void): void {
    if (this.gaveUp !== null) listener(this.gaveUp);
    else this.giveUpListeners.add(listener);
  }

  /** The current process's id (the bench reads its CPU from /proc). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The last output of the process (for a failure's message). */
  tail(): string {
    return this.output.slice(-1500);
  }

  /**
   * Starts the process and resolves once it is ready. Like a supervisor, a process that exits on
   * its own (its failure policy: a failed stage exits for a restart) is started again, and why it
   * exited is kept in `selfExits`; one that cannot be started again is given up (`onGiveUp`). A
   * start after `stop` supervises the process again.
   */
  start(timeoutMs = 180_000): Promise<void> {
    this.supervised = true;
    this.ready = this.launch(timeoutMs, START_DELAYS_MS);
    return this.ready;
  }

  /**
   * After an exit nobody asked for: started again as a supervisor would, waiting longer before
   * each try. Until now a restart that failed was dropped silently and the run went on without
   * the process; now the supervisor gives up, says why and the run ends.
   */
  private restart(exit: string): void {
    const delays = this.options.restartDelaysMs ?? RESTART_DELAYS_MS;
    const restarting = this.launch(180_000, delays);
    this.ready = restarting;
    void restarting.catch((e: unknown) => {
      if (!this.supervised) return;
      const why = e instanceof LaunchFailure ? e.why : e instanceof Error ? e.message : String(e);
      this.gaveUp = `${exit}, and could not be started again: ${why}`;
      for (const listener of this.giveUpListeners) listener(this.gaveUp);
      this.giveUpListeners.clear();
    });
  }

  private async launch(timeoutMs: number, delaysMs: readonly number[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      // The driver's own flags (tsx from source, the bench's heap sizes) go to the entry too.
      const command = this.options.command ?? { file: process.execPath, args: [...process.execArgv, ENTRY[this.role]] };
      const child = spawn(command.file, [...command.args], {
        cwd: ROOT,
        env: { PATH: process.env['PATH'] ?? '', HOST: '127.0.0.1', PORT: String(this.port), LOG_LEVEL: 'warn', ...this.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      this.child = child;
      this.expectedExit = false;
      this.output = '';
      let isReady = false;
      let partial = '';
      child.stdout?.on('data', (c: Buffer) => {
        this.output = (this.output + c.toString()).slice(-20_000);
        const lines = (partial + c.toString()).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) {
          // A consumer rejoined after its group refused it is a new member too (pipeline/bus/rejoin-lost-commit.test.ts).
          if (/"msg":"(pipeline stage |Kafka consumer refused by its group)/.test(line))
            this.stageFailures.push(`${this.name}: ${stageLine(line)}`);
          else if (/"msg":"the store (does not answer|answers again)/.test(line))
            this.storeWaits.push(`${this.name}: ${storeWaitLine(line)}`);
        }
      });
      child.stderr?.on('data', (c: Buffer) => (this.output = (this.output + c.toString()).slice(-20_000)));
      // 'exit' may come before the last output is read: why a process exited is read once its
      // pipes closed (or a second later, should something else hold them open).
      const drained = new Promise<void>((resolve) => {
        child.once('close', () => resolve());
        child.once('exit', () => setTimeout(resolve, 1000).unref());
      });
      child.once('exit', (code, signal) => {
        if (this.expectedExit || this.child !== child) return;
        const exit = `${this.name} exited (${String(code ?? signal)}) ${isReady ? 'while running' : 'while starting'}`;
        const wasReady = isReady;
        void drained.then(() => {
          this.selfExits.push(`${exit}: ${lastError(this.output)}`);
          if (wasReady && this.supervised) this.restart(exit);
        });
      });
      this.generation++;
      const end = Date.now() + timeoutMs;
      while (!READY[this.role].test(this.output) && this.running && Date.now() <= end) await new Promise((r) => setTimeout(r, 100));
      if (READY[this.role].test(this.output)) {
        isReady = true;
        return;
      }
      if (this.running)
        throw new LaunchFailure(
          `not ready within ${timeoutMs / 1000} s`,
          `${this.name} not ready within ${timeoutMs / 1000} s: ${this.tail()}`,
        );
      await drained;
      const delay = delaysMs[attempt - 1];
      if (delay === undefined || !this.supervised)
        throw new LaunchFailure(
          `it exited before it was ready ${attempt} times, the last one saying: ${lastError(this.output)}`,
          `${this.name} exited before it was ready, ${attempt} times: ${this.tail()}`,
        );
      await new Promise((r) => setTimeout(r, delay));
      if (!this.supervised) throw new LaunchFailure('stopped while it was being started again', `${this.name} stopped while starting`);
    }
  }

  /** kill -9 (once it is up, if it is starting), and wait until it is gone. */
  async kill(): Promise<void> {
    await this.ready.catch(() => undefined);
    this.expectedExit = true;
    await this.signal('SIGKILL');
  }

  /** SIGTERM (the graceful stop), or SIGKILL after `timeoutMs`; no restart after it until the next `start`. */
  async stop(timeoutMs = 60_000): Promise<void> {
    this.supervised = false;
    await this.ready.catch(() => undefined);
    this.expectedExit = true;
    const timer = setTimeout(() => this.child?.kill('SIGKILL'), timeoutMs);
    await this.signal('SIGTERM');
    clearTimeout(timer);
  }

  private async signal(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    await gone;
  }
}
