import type { ChildProcess } from 'node:child_process';
import type { RawTick } from '../../schemas/index.js';
import { LEAGUES, TOPICS } from '../../schemas/index.js';
import { NO_BATCH } from '../../pipeline/bus/index.js';
import type { Bus } from '../../pipeline/bus/index.js';
import { ManualClock } from '../../pipeline/clock.js';
import { MarketSimulator } from '../../pipeline/feeds/simulator/index.js';
import { exited } from './entry.js';

/** Helpers of the suites that run pipeline processes (`ROLE=pipeline`) on a Kafka broker. */

/** A deterministic market: the simulator's opening board and some minutes of repricing, suspensions included. */
export function recordedInput(T0: number): RawTick[] {
  const clock = new ManualClock(T0);
  // Four leagues keep it to a few thousand ticks: the suite runs it with every process on Avro.
  const leagues = LEAGUES.filter((l) => ['nba', 'nhl', 'nfl', 'epl'].includes(l.id));
  const sim = new MarketSimulator({ seed: 11, clock, eventsPerLeague: 1, suspensionsPerMinute: 240, catalog: { leagues } });
  const raw = sim.snapshot();
  for (let i = 1; i <= 8; i++) raw.push(...sim.step(T0 + i * 4000, 150));
  return raw;
}

export async function produce(bus: Bus, raw: readonly RawTick[]): Promise<void> {
  const producer = bus.producer();
  for (let i = 0; i < raw.length; i += 250) {
    await producer.send(
      TOPICS.rawTicks,
      raw.slice(i, i + 250).map((t) => ({ key: `${t.book}:${t.bookEventId}`, partitionKey: t.league, value: t })),
      NO_BATCH,
    );
  }
}

/** The counters (`/stats`) are operator data: pipeline processes spawned with this env serve them on PORT to `json`. */
const OPERATOR_TOKEN = 'pipeline-processes-operator-token';
export const OPERATOR_ENV = { METRICS_TOKEN: OPERATOR_TOKEN };

export async function json<T>(url: string): Promise<T> {
  return (await (await fetch(url, { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } })).json()) as T;
}

/** Every stage of every process committed everything: lag 0 on several polls in a row. */
export async function idle(urls: string[], timeoutMs = 120_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  let calm = 0;
  while (calm < 4) {
    if (Date.now() > end)
      throw new Error(`pipelines still busy: ${JSON.stringify(await Promise.all(urls.map((u) => json(`${u}/stats`))))}`);
    const lags = await Promise.all(urls.map(async (u) => (await json<{ lag: number }>(`${u}/health`)).lag));
    calm = lags.every((l) => l === 0) ? calm + 1 : 0;
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * Produces the first half of `raw`, waits until the pipeline process wrote some ticks (mid-stream:
 * the stages are still busy), kills it with SIGKILL, then produces the rest.
 */
export async function killMidStream(
  bus: Bus,
  raw: readonly RawTick[],
  pipeline: { child: ChildProcess & { output: { stdout: string; stderr: string } }; url: string },
  timeoutMs = 60_000,
): Promise<void> {
  const half = Math.floor(raw.length / 2);
  await produce(bus, raw.slice(0, half));
  const end = Date.now() + timeoutMs;
  while ((await json<{ sinks: { odds_ticks: { rowsWritten: number } } }>(`${pipeline.url}/stats`)).sinks.odds_ticks.rowsWritten === 0) {
    if (Date.now() > end) throw new Error('the first pipeline wrote nothing');
    await new Promise((r) => setTimeout(r, 50));
  }
  pipeline.child.kill('SIGKILL');
  const result = await exited(pipeline.child);
  if (result.signal !== 'SIGKILL') throw new Error(`the pipeline process ended by ${result.signal ?? result.code} before it was killed`);
  await produce(bus, raw.slice(half));
}

/**
 * `/odds` of each API process, polled until they agree and hold a board. Throws when they do not
 * within `timeoutMs`, naming each process's row count: a replica still reading its changelogs on a
 * loaded machine must fail here, by name, not later as an unexplained mirror difference.
 */
export async function settledOdds(urls: readonly string[], apiKey: string, timeoutMs: number): Promise<string[]> {
  // `meta.delta_cursor` names the replica that issued it (so that replica can resume it exactly):
  // the one field of /odds that is rightly different on each replica, left out of the comparison.
  const odds = async (url: string): Promise<{ text: string; rows: number }> => {
    const body = (await (await fetch(`${url}/api/v1/odds?limit=500`, { headers: { 'x-api-key': apiKey } })).json()) as {
      data?: unknown[];
      meta?: Record<string, unknown>;
    };
    if (body.meta) delete body.meta['delta_cursor'];
    return { text: JSON.stringify(body), rows: body.data?.length ?? 0 };
  };
  const until = Date.now() + timeoutMs;
  for (;;) {
    await new Promise((r) => setTimeout(r, 500));
    const bodies = await Promise.all(urls.map(odds));
    if (bodies.every((b) => b.text === bodies[0]?.text) && (bodies[0]?.rows ?? 0) > 0) return bodies.map((b) => b.text);
    if (Date.now() >= until) {
      const seen = urls.map((u, i) => `${u}: ${bodies[i]?.rows ?? 0} rows on the first page`).join(', ');
      throw new Error(`the API processes did not serve the same non-empty board within ${timeoutMs / 1000} s (${seen})`);
    }
  }
}
