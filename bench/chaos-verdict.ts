/**
 * What `make chaos` found, as a table and a list of failures: pure, so the rules of the verdict
 * are tested apart from a run (bench/chaos-verdict.test.ts).
 */

export interface ChaosFindings {
  seconds: number;
  kills: { pipeline: number; api: number };
  /** Processes that exited when nobody stopped them (then restarted, as a supervisor would): not a failure by itself. */
  selfExits: string[];
  /** Processes the supervisor gave up on (exited on their own, could not be started again): the run ended there. */
  gaveUp: string[];
  /** Stage failures and restarts the processes logged (each one a finding to read; an exit shows in `selfExits` too). */
  stageFailures: string[];
  /** What the sinks said of the store, by process: a table it stopped answering, and when it answered again. */
  storeWaits: string[];
  /** The store outage window: what it saw, and the promise it broke, if any (bench/chaos-store-outage.ts). */
  storeOutage: { line: string; failure: string | null };
  /** Sessions across the two replicas (Redis): what held, or why the check failed or did not run. */
  sessions: { verdict: 'held' | 'failed' | 'not run'; line: string };
  ticks: { produced: number; expected: number; storedRows: number; storedDistinct: number; missing: number; unexpected: number };
  streams: {
    clients: number;
    /** Connections after the first, and those the server resumed, SSE and WebSocket apart. */
    reconnects: { sse: number; ws: number };
    resumed: { sse: number; ws: number };
    replayedFrames: number;
    outOfStep: string[];
    notHeard: number;
  };
  orderViolations: string[];
  delta: { pollers: number; polls: number; outOfStep: string[] };
  /** By `<sse|ws|delta>: <reason>` (see resyncLabel in chaos-clients.ts). */
  resyncs: ReadonlyMap<string, number>;
  http: { ok: number; clientError: number; shed503: number; other5xx: number; unreachable: number };
  fiveXxExamples: string[];
  /** The two replicas' `/odds` after the drain: equal, or why not. */
  replicasAgree: string | null;
  /**
   * Each replica's `/odds` after the drain against a third reader, a fresh fold of `odds.snapshot`
   * from offset 0 (test/support/changelog-fold.ts): null when it matches, else what it lacks or
   * holds wrongly, with the first keys and their last offsets. Says which side of a disagreement is wrong.
   */
  againstChangelog: { replica: string; wrong: string | null; deleted: number }[];
  /**
   * Where `odds.snapshot`'s partitions start when the cluster deleted their head (`p2@3400, ...`;
   * empty: none did). librdkafka's mock cluster keeps about 5 MB a partition and does not compact,
   * so a key's last record can go, and a replica that reloads after that cannot hold its row.
   */
  deletedHeads: string;
}

/** A pipeline's `/stats`, as far as a stuck drain reads it: each stage's group lag, and the partitions its consumer holds in this process. */
export interface StageLags {
  lag: Record<string, number>;
  partitions: Record<string, number[]>;
}

/**
 * The stages of one pipeline that are behind, for a drain that timed out: each with its group's
 * lag and the partitions its consumer holds here. A stage holding none here (its consumer
 * stopping, failed, or left out of the group) reports the lag it read last, which no longer moves.
 */
export function stagesBehind(stats: StageLags | null): string {
  if (stats === null) return '/stats unreadable';
  const behind = Object.entries(stats.lag)
    .filter(([, lag]) => lag > 0)
    .sort(([a], [b]) => a.localeCompare(b));
  if (behind.length === 0) return 'no stage behind (what remains is restores in flight)';
  return behind
    .map(([stage, lag]) => {
      const held = stats.partitions[stage] ?? [];
      return `${stage} ${lag} (${held.length === 0 ? 'no partition here' : `partitions ${held.join(',')} here`})`;
    })
    .join(', ');
}

/**
 * Resyncs that break the promise of exact resume inside retention: any SSE or delta resync,
 * except a client that dropped before its first snapshot completed (it held no position). The
 * WebSocket resyncs on another replica by design (docs/api.md) and is only counted.
 */
function brokenResumes(resyncs: ReadonlyMap<string, number>): [string, number][] {
  return [...resyncs].filter(
    ([label]) => /^(sse|delta): /.test(label) && !label.endsWith('no resume position yet (dropped during a snapshot)'),
  );
}

/** Every check that failed, one clear line each (empty: the run passed). */
export function chaosFailures(f: ChaosFindings): string[] {
  const failures: string[] = [];
  const t = f.ticks;
  // First: what follows was measured on a system missing the process.
  for (const reason of f.gaveUp)
    failures.push(`the supervisor gave up: ${reason}; the run ended there, and the checks below ran without it`);
  if (t.missing > 0) failures.push(`${t.missing} of ${t.expected} ticks are not in odds_ticks`);
  if (t.storedRows > t.storedDistinct) failures.push(`${t.storedRows - t.storedDistinct} ticks stored more than once`);
  if (t.unexpected > 0) failures.push(`${t.unexpected} rows in odds_ticks that no produced tick explains`);
  if (f.storeOutage.failure !== null) failures.push(f.storeOutage.failure);
  if (f.sessions.verdict === 'failed') failures.push(`sessions across replicas: ${f.sessions.line}`);
  if (f.replicasAgree !== null) failures.push(`the API replicas disagree after the drain: ${f.replicasAgree}`);
  for (const r of f.againstChangelog) if (r.wrong !== null) failures.push(`${r.replica}'s /odds differs from the changelog: ${r.wrong}`);
  const deleted = Math.max(0, ...f.againstChangelog.map((r) => r.deleted));
  if (deleted > 0)
    failures.push(
      `the cluster deleted records of odds.snapshot (it now starts at ${f.deletedHeads}): ${deleted} rows served have no record left, so a replica reloaded since cannot hold them. The log broke the compacted topic's promise, not the reload: lower CHAOS_TICKS_PER_SECOND or CHAOS_SECONDS (docs/chaos.md)`,
    );
  for (const s of f.streams.outOfStep) failures.push(`stream client out of step with /odds: ${s}`);
  for (const [label, count] of brokenResumes(f.resyncs)) failures.push(`${count} resyncs inside retention (${label})`);
  if (f.streams.notHeard > 0) failures.push(`${f.streams.notHeard} stream clients heard no heartbeat after the drain (not compared)`);
  for (const s of f.orderViolations.slice(0, 5)) failures.push(`stream frame repeated or out of order: ${s}`);
  for (const s of f.delta.outOfStep) failures.push(`delta poller out of step with /odds: ${s}`);
  if (f.http.other5xx > 0) failures.push(`${f.http.other5xx} answers 5xx other than 503 with Retry-After: ${f.fiveXxExamples.join('; ')}`);
  return failures;
}

/** The summary table, one `what | value` line each. */
export function chaosTable(f: ChaosFindings): string {
  const resyncs = [...f.resyncs].sort(([a], [b]) => a.localeCompare(b));
  const rows: [string, string][] = [
    ['run', `${f.seconds} s`],
    ['kills (kill -9, then restart)', `pipeline ${f.kills.pipeline}, api ${f.kills.api}`],
    ['exits on their own (restarted)', String(f.selfExits.length)],
    ...f.selfExits.map((why): [string, string] => ['  exit', why]),
    ['given up by the supervisor (run ended)', f.gaveUp.length === 0 ? 'none' : f.gaveUp.join('; ')],
    ['stage failures logged', String(f.stageFailures.length)],
    ...f.stageFailures.slice(0, 10).map((why): [string, string] => ['  stage', why]),
    ['store outage', f.storeOutage.line],
    [
      'sinks waiting for the store',
      `${f.storeWaits.filter((w) => w.endsWith('stopped answering')).length} stopped answering, ${f.storeWaits.filter((w) => !w.endsWith('stopped answering')).length} answered again`,
    ],
    ...f.storeWaits.slice(0, 8).map((w): [string, string] => ['  sink', w]),
    ['sessions across replicas (Redis)', `${f.sessions.verdict}: ${f.sessions.line}`],
    ['ticks produced (distinct expected in odds_ticks)', `${f.ticks.produced} (${f.ticks.expected})`],
    [
      'odds_ticks rows (distinct)',
      `${f.ticks.storedRows} (${f.ticks.storedDistinct}); missing ${f.ticks.missing}, unexpected ${f.ticks.unexpected}`,
    ],
    [
      'stream clients: reconnects, resumed (SSE; WS)',
      `${f.streams.clients}: ${f.streams.reconnects.sse}, ${f.streams.resumed.sse}; ${f.streams.reconnects.ws}, ${f.streams.resumed.ws}`,
    ],
    ['replayed frames', String(f.streams.replayedFrames)],
    ['resyncs', resyncs.length === 0 ? '0' : String(resyncs.reduce((n, [, c]) => n + c, 0))],
    ...resyncs.map(([reason, count]): [string, string] => [`  resync: ${reason}`, String(count)]),
    ['stream mirrors out of step', `${f.streams.outOfStep.length} (not heard: ${f.streams.notHeard})`],
    ['repeated or out-of-order frames', String(f.orderViolations.length)],
    ['delta pollers (polls), out of step', `${f.delta.pollers} (${f.delta.polls}), ${f.delta.outOfStep.length}`],
    ['HTTP ok / 4xx / 503+Retry-After / unreachable', `${f.http.ok} / ${f.http.clientError} / ${f.http.shed503} / ${f.http.unreachable}`],
    ['5xx (other than 503 with Retry-After)', String(f.http.other5xx)],
    ['odds.snapshot records deleted by the cluster', f.deletedHeads === '' ? 'none' : `the log now starts at ${f.deletedHeads}`],
    ...f.againstChangelog.map((r): [string, string] => [`${r.replica} /odds against odds.snapshot`, r.wrong ?? 'matches the changelog']),
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)} | ${v}`).join('\n');
}
