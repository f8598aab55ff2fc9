import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { RawTick } from '../schemas/index.js';
import { systemClock } from '../pipeline/clock.js';
import { buildApp } from '../api/app.js';
import { KeyStore } from '../api/accounts/index.js';
import { unlimitedRateLimits } from '../api/plugins/rate-limit.js';
import { Catalog } from '../api/views/catalog.js';
import { recordedTicks } from './pipeline.js';
import type { PollerResult } from './visible-poller.js';
import { startServingPipeline } from './serving-pipeline.js';
import { cpuProfile } from './cpu-profile.js';
import { summarize } from './report.js';
import type { BenchFigure } from './report.js';

const KEY = 'bench-visible-key-0123456789';
/** The first probe's American price; the watched row is set to +151 before the probes start. */
const FIRST_PROBE_PRICE = 152;
const wall = (): number => performance.timeOrigin + performance.now();

/**
 * Tick to visible: raw ticks enter the bus at `rate` a second (the recorded market, replayed with
 * fresh times) through the whole pipeline (normalizer, snapshot, opportunities, chDB sinks) and
 * the API's changelog view; every 50 ms one of them is a probe, a new price for one watched row.
 * A client in its own process polls GET /odds for that row back to back; a probe's latency is
 * from the moment it was sent to the bus to the moment the poll that first shows it returned.
 * Baseline: the poll's own round trip (a probe cannot be seen faster than one poll).
 */
export async function benchVisible(rate = 2000, seconds = 12): Promise<BenchFigure[]> {
  const { ticks } = recordedTicks(40_000);
  const clock = systemClock;
  const serving = await startServingPipeline(clock, 'visible');
  const { board, store, send, drained } = serving;
  const now0 = clock.now();
  const fresh = (t: RawTick): RawTick => ({ ...t, ts: clock.now(), startTime: t.startTime - ticks[0]!.ts + now0 + 3600_000 }); // eslint-disable-line @typescript-eslint/no-non-null-assertion
  for (let i = 0; i < 20_000; i += 2000) await send(ticks.slice(i, i + 2000).map(fresh));
  await drained();

  // The watched row: a pre-game moneyline price on the board, and the raw ticks that set its event's prices at that book.
  const probeBase = ticks
    .slice(0, 20_000)
    .reverse()
    .find((t) => t.market === 'moneyline' && t.status === 'open' && !t.isLive && t.priceAmerican !== null);
  if (!probeBase) throw new Error('visible bench: no moneyline tick');
  const probeTick = (price: number): RawTick => fresh({ ...probeBase, priceAmerican: price, status: 'open' });
  await send([probeTick(151)]);
  await drained();
  let rowId = '';
  let eventId = '';
  for (const e of board.activeEvents()) {
    for (const r of board.rowsOf(e.id)) {
      if (r.book === probeBase.book && r.market === 'moneyline' && r.priceAmerican === 151) {
        rowId = r.id;
        eventId = e.id;
      }
    }
  }
  if (!rowId) throw new Error('visible bench: the probe tick moves no row on the board');

  const keys = new KeyStore();
  keys.add(KEY, 'enterprise', { requestsPerMinute: 1e12 });
  const app = await buildApp({
    board,
    catalog: new Catalog(),
    keys,
    rateLimits: unlimitedRateLimits,
    clock,
    store,
    version: 'bench',
    redisUrl: null,
  });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `${base}/api/v1/odds?event=${encodeURIComponent(eventId)}&sportsbook=${probeBase.book}&market=moneyline`;

  const poller = fork(fileURLToPath(new URL('./visible-poller.js', import.meta.url)));
  const result = new Promise<PollerResult>((resolve) => poller.once('message', (m) => resolve(m as PollerResult)));
  poller.send({ url, key: KEY, seconds: seconds + 1, rowId });
  await new Promise((r) => setTimeout(r, 300));

  const probes: [number, number][] = [];
  // `BENCH_VISIBLE_PROFILE=<file>`: a CPU profile of the serving process over the probed seconds only.
  const stopProfile = cpuProfile(process.env['BENCH_VISIBLE_PROFILE']);
  const start = performance.now();
  let sent = 0;
  let k = 0;
  let next = 20_000;
  let probeAt = start;
  while (performance.now() - start < seconds * 1000) {
    const due = Math.floor(((performance.now() - start) / 1000) * rate);
    const batch: RawTick[] = [];
    while (sent + batch.length < due) {
      const t = ticks[next++ % ticks.length] as RawTick;
      if (!(t.book === probeBase.book && t.bookEventId === probeBase.bookEventId && t.market === 'moneyline')) batch.push(fresh(t));
    }
    if (performance.now() >= probeAt) {
      // Every 50 ms a probe, each with a price of its own (+152, +153, ...: 20 a second stays
      // within sane American odds for any run this bench makes), so a sighting names one probe.
      probeAt += 50;
      const price = FIRST_PROBE_PRICE + k++;
      batch.push(probeTick(price));
      probes.push([price, wall()]);
    }
    sent += batch.length;
    if (batch.length > 0) await send(batch);
    await new Promise((r) => setTimeout(r, 2));
  }
  await stopProfile();
  const { seen, roundTrips } = await result;
  const latencies = visibleLatencies(probes, seen);
  await app.close();
  await serving.stop();

  const lat = latencies.sort((a, b) => a - b);
  const p = (q: number): number => lat[Math.min(lat.length - 1, Math.floor(q * lat.length))] ?? 0;
  const rtt = summarize(roundTrips);
  const rtts = [...roundTrips].sort((a, b) => a - b);
  const rttP99 = rtts[Math.floor(0.99 * rtts.length)] ?? 0;
  process.stdout.write(
    `  ${probes.length} probes, ${latencies.length} visible before the end (a probe overtaken by a later one counts as visible when the later one is); ${sent.toLocaleString('en-US')} ticks in ${seconds} s; board ${board.rowCount.toLocaleString('en-US')} prices\n`,
  );
  return [
    {
      name: `tick -> visible on /odds p50 @ ${rate}/s`,
      value: p(0.5),
      unit: 'ms',
      baseline: { name: 'poll round trip p50', value: rtt.median },
    },
    {
      name: `tick -> visible on /odds p99 @ ${rate}/s`,
      value: p(0.99),
      unit: 'ms',
      baseline: { name: 'poll round trip p99', value: rttP99 },
    },
  ];
}

/**
 * Each probe's latency from the poller's sightings of the watched row: a probe is visible from
 * the first poll that shows its price or the price of any later probe. The probes are one
 * book's ticks for one row, so they pass the pipeline in order: a row showing probe j has
 * applied every probe before it, even one a poll never caught because the next probe replaced
 * it between two polls. Counting only the probes a poll caught once dropped the slow ones (a
 * probe still in flight when the next arrived is exactly the slow case) and, with prices reused
 * every hundred probes, matched sightings of a later probe to an earlier one, which read as
 * latencies of nearly 5 s.
 *
 * @param probes [price, epoch ms sent] in the order sent, each price its own
 * @param seen [price, epoch ms first seen] in the order the poller saw them
 * @returns the latency in ms of every probe visible before the poller stopped, in the order sent
 */
export function visibleLatencies(probes: readonly (readonly [number, number])[], seen: readonly (readonly [number, number])[]): number[] {
  const indexOf = new Map(probes.map(([price], i) => [price, i]));
  const latencies: number[] = [];
  for (const [price, at] of seen) {
    const j = indexOf.get(price);
    if (j === undefined) continue;
    while (latencies.length <= j) latencies.push(at - (probes[latencies.length] as readonly [number, number])[1]);
  }
  return latencies;
}
