/**
 * The chaos run's store outage window, for ClickHouse in server mode only (docs/chaos.md): the
 * operator says how to stop and start the server (`CHAOS_STORE_STOP_CMD`,
 * `CHAOS_STORE_START_CMD`, e.g. `docker compose stop clickhouse`), or `CHAOS_STORE=server` has the
 * run start the development store server (`bench/store-server.ts`) and stop and start it itself.
 * chDB runs inside each pipeline process, and an outage of it would have to be faked, so without
 * a server the window does not run and says why. While the store is down the ticks wait in Kafka
 * (the pipelines' lag grows), the sinks wait, and no `/health` may say ok; once it is back, the
 * end of the run checks that every tick was stored exactly once.
 */
import { exec } from 'node:child_process';

/**
 * How the window is run, or why it cannot be: by the operator's commands, or by stopping and
 * starting the store server the run started (`store-server`).
 */
export type StoreOutagePlan =
  | { run: true; by: 'commands'; stop: string; start: string; seconds: number }
  | { run: true; by: 'store-server'; seconds: number }
  | { run: false; why: string };

export function storeOutagePlan(env: NodeJS.ProcessEnv): StoreOutagePlan {
  const seconds = Number(env['CHAOS_STORE_OUTAGE_SECONDS'] ?? 20);
  const badSeconds = { run: false, why: 'not run: CHAOS_STORE_OUTAGE_SECONDS must be a positive number' } as const;
  const secondsFine = Number.isFinite(seconds) && seconds > 0;
  if (env['CHAOS_STORE'] === 'server') return secondsFine ? { run: true, by: 'store-server', seconds } : badSeconds;
  const stop = env['CHAOS_STORE_STOP_CMD'];
  const start = env['CHAOS_STORE_START_CMD'];
  if (!env['CLICKHOUSE_URL'])
    return {
      run: false,
      why: 'not run: the store is chDB inside each pipeline process (CHAOS_STORE=server, or CLICKHOUSE_URL and the stop/start commands, for server mode)',
    };
  if (!stop || !start)
    return { run: false, why: 'not run: CLICKHOUSE_URL is set but CHAOS_STORE_STOP_CMD or CHAOS_STORE_START_CMD is not' };
  return secondsFine ? { run: true, by: 'commands', stop, start, seconds } : badSeconds;
}

/** What stops the store for the window and starts it again. */
export interface StoreSwitch {
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** The operator's shell commands as the switch. */
export function commandSwitch(stop: string, start: string): StoreSwitch {
  return { stop: () => shell(stop), start: () => shell(start) };
}

function shell(command: string): Promise<void> {
  return new Promise((resolve, reject) => {
    exec(command, { timeout: 120_000 }, (error, _stdout, stderr) =>
      error ? reject(new Error(`\`${command}\` failed: ${stderr.trim() || error.message}`)) : resolve(),
    );
  });
}

/** What one probe of the processes saw: each API replica's /health status, each pipeline's /health status and lag. */
export interface OutageProbe {
  health: readonly (string | null)[];
  pipelineHealth: readonly (string | null)[];
  lags: readonly (number | null)[];
}

/** What the window saw, as the table's line, and whether it broke a promise (`failure`). */
export interface OutageFinding {
  line: string;
  failure: string | null;
}

/** The statuses some /health answers said, sorted, as text (an answer not had: `unreachable`). */
function said(statuses: readonly (string | null)[]): string {
  return [...new Set(statuses.map((h) => h ?? 'unreachable'))].sort().join(', ') || 'nothing';
}

/**
 * The verdict on the probes taken while the store was down (pure): both roles' `/health` must
 * stop saying ok (the API's and the pipeline process's read the store alike), and ticks must wait.
 */
export function outageVerdict(seconds: number, probes: readonly OutageProbe[]): OutageFinding {
  const peak = Math.max(0, ...probes.flatMap((p) => p.lags.map((l) => l ?? 0)));
  const line = `ran ${seconds} s: API /health said ${said(probes.flatMap((p) => p.health))}; pipeline /health said ${said(probes.flatMap((p) => p.pipelineHealth))}; pipeline lag peaked at ${peak}`;
  const failures: string[] = [];
  if (probes.length === 0) failures.push('no probe was taken');
  else {
    if (probes.every((p) => p.health.some((h) => h === 'ok'))) failures.push('an API /health said ok throughout');
    if (probes.every((p) => p.pipelineHealth.some((h) => h === 'ok'))) failures.push('a pipeline /health said ok throughout');
  }
  if (peak === 0) failures.push('the pipelines never had ticks waiting');
  return { line, failure: failures.length > 0 ? `store outage: ${failures.join('; ')}` : null };
}

/** Stops the store, probes once a second for `seconds`, starts it again. */
export async function storeOutage(seconds: number, store: StoreSwitch, probe: () => Promise<OutageProbe>): Promise<OutageFinding> {
  await store.stop();
  const probes: OutageProbe[] = [];
  try {
    const end = Date.now() + seconds * 1000;
    while (Date.now() < end) {
      probes.push(await probe());
      await new Promise((r) => setTimeout(r, 1000));
    }
  } finally {
    await store.start();
  }
  return outageVerdict(seconds, probes);
}
