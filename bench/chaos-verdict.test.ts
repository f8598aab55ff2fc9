import { describe, expect, it } from 'vitest';
import { chaosFailures, chaosTable, stagesBehind } from './chaos-verdict.js';
import type { ChaosFindings } from './chaos-verdict.js';
import { resyncLabel, resyncReason } from './chaos-clients.js';

function clean(): ChaosFindings {
  return {
    seconds: 60,
    kills: { pipeline: 1, api: 1 },
    selfExits: [],
    gaveUp: [],
    stageFailures: [],
    storeWaits: [],
    storeOutage: { line: 'not run: the store is chDB inside each pipeline process', failure: null },
    sessions: { verdict: 'held', line: 'signed in on api-a, used on api-b' },
    ticks: { produced: 100, expected: 90, storedRows: 90, storedDistinct: 90, missing: 0, unexpected: 0 },
    streams: { clients: 6, reconnects: { sse: 2, ws: 2 }, resumed: { sse: 2, ws: 0 }, replayedFrames: 3, outOfStep: [], notHeard: 0 },
    orderViolations: [],
    delta: { pollers: 2, polls: 50, outOfStep: [] },
    resyncs: new Map([
      ['ws: moved to the other replica (by design)', 2],
      ['sse: no resume position yet (dropped during a snapshot)', 1],
    ]),
    http: { ok: 500, clientError: 0, shed503: 2, other5xx: 0, unreachable: 7 },
    fiveXxExamples: [],
    replicasAgree: null,
    againstChangelog: [
      { replica: 'api-a', wrong: null, deleted: 0 },
      { replica: 'api-b', wrong: null, deleted: 0 },
    ],
    deletedHeads: '',
  };
}

describe('the chaos verdict', () => {
  it('passes a run where everything is stored once and in step, WebSocket moves and 503s with Retry-After counted but allowed', () => {
    expect(chaosFailures(clean())).toEqual([]);
  });

  it('names each broken promise on its own line', () => {
    const f = clean();
    f.ticks = { produced: 100, expected: 90, storedRows: 92, storedDistinct: 89, missing: 1, unexpected: 0 };
    f.http = { ...f.http, other5xx: 1 };
    f.fiveXxExamples = ['500 GET /api/v1/events'];
    f.streams = { ...f.streams, outOfStep: ["ws 'league=nba' vs api-b: 1 differing (x), 0 extra"] };
    expect(chaosFailures(f)).toEqual([
      '1 of 90 ticks are not in odds_ticks',
      '3 ticks stored more than once',
      "stream client out of step with /odds: ws 'league=nba' vs api-b: 1 differing (x), 0 extra",
      '1 answers 5xx other than 503 with Retry-After: 500 GET /api/v1/events',
    ]);
  });

  it('fails first on a process the supervisor gave up on, and prints why in the table', () => {
    const f = clean();
    const reason =
      'pipeline-a exited (1) while running, and could not be started again: it exited before it was ready 8 times, the last one saying: CLICKHOUSE_URL http://127.0.0.1:9 is not usable';
    f.gaveUp = [reason];
    f.ticks = { ...f.ticks, missing: 4 };
    expect(chaosFailures(f)).toEqual([
      `the supervisor gave up: ${reason}; the run ended there, and the checks below ran without it`,
      '4 of 90 ticks are not in odds_ticks',
    ]);
    const lines = chaosTable(f).split('\n');
    // The key column is padded to the longest key of the table.
    expect(lines.find((l) => l.startsWith('given up by the supervisor'))?.replace(/ +\| /, ' | ')).toBe(
      `given up by the supervisor (run ended) | ${reason}`,
    );
    expect(
      chaosTable(clean())
        .split('\n')
        .find((l) => l.startsWith('given up by the supervisor')),
    ).toMatch(/\| none$/);
  });

  it('fails when sessions did not hold across the replicas, not when the check could not run', () => {
    const f = clean();
    f.sessions = { verdict: 'not run', line: 'redis-server not installed' };
    expect(chaosFailures(f)).toEqual([]);
    f.sessions = { verdict: 'failed', line: 'the cookie signed in on api-a is 401 on api-b: sessions are not shared' };
    expect(chaosFailures(f)).toEqual(['sessions across replicas: the cookie signed in on api-a is 401 on api-b: sessions are not shared']);
  });

  it('names the replica whose /odds differs from a fresh fold of the changelog, and prints each one against it', () => {
    const f = clean();
    f.againstChangelog = [
      { replica: 'api-a', wrong: null, deleted: 0 },
      {
        replica: 'api-b',
        wrong: 'lacks 1, serves 0 it should not, 0 differ: missing e|moneyline|||home||dk (last record p2@41: -110 at 5), not served',
        deleted: 0,
      },
    ];
    expect(chaosFailures(f)).toEqual([
      "api-b's /odds differs from the changelog: lacks 1, serves 0 it should not, 0 differ: missing e|moneyline|||home||dk (last record p2@41: -110 at 5), not served",
    ]);
    const lines = chaosTable(f).split('\n');
    expect(lines.find((l) => l.startsWith('api-a /odds against odds.snapshot'))).toMatch(/\| matches the changelog$/);
    expect(lines.find((l) => l.startsWith('api-b /odds against odds.snapshot'))).toMatch(/\| lacks 1, /);
    expect(lines.find((l) => l.startsWith('odds.snapshot records deleted by the cluster'))).toMatch(/\| none$/);
  });

  it('says when the cluster deleted the last records of rows a replica serves: the log, not the reload, broke the promise', () => {
    const f = clean();
    f.deletedHeads = 'p2@3400';
    f.againstChangelog = [
      {
        replica: 'api-a',
        wrong: 'lacks 0, serves 33 it should not (33 of them with their last record deleted by the cluster), 0 differ: deleted x',
        deleted: 33,
      },
      { replica: 'api-b', wrong: null, deleted: 0 },
    ];
    expect(chaosFailures(f)).toEqual([
      "api-a's /odds differs from the changelog: lacks 0, serves 33 it should not (33 of them with their last record deleted by the cluster), 0 differ: deleted x",
      "the cluster deleted records of odds.snapshot (it now starts at p2@3400): 33 rows served have no record left, so a replica reloaded since cannot hold them. The log broke the compacted topic's promise, not the reload: lower CHAOS_TICKS_PER_SECOND or CHAOS_SECONDS (docs/chaos.md)",
    ]);
    expect(
      chaosTable(f)
        .split('\n')
        .find((l) => l.startsWith('odds.snapshot records deleted')),
    ).toMatch(/\| the log now starts at p2@3400$/);
  });

  it('fails on an SSE or delta resync inside retention, naming its reason', () => {
    const f = clean();
    f.resyncs = new Map([
      ['sse: moved to the other replica', 2],
      ['delta: replica restarted since', 1],
      ['ws: replica restarted since (by design)', 4],
    ]);
    expect(chaosFailures(f)).toEqual([
      '2 resyncs inside retention (sse: moved to the other replica)',
      '1 resyncs inside retention (delta: replica restarted since)',
    ]);
  });

  it('prints resyncs by reason under their total, and SSE and WebSocket reconnects apart', () => {
    const f = clean();
    f.resyncs = new Map([
      ['ws: replica restarted since (by design)', 1],
      ['ws: moved to the other replica (by design)', 3],
    ]);
    const lines = chaosTable(f).split('\n');
    const at = lines.findIndex((l) => l.startsWith('resyncs '));
    expect(lines[at]?.endsWith('| 4')).toBe(true);
    expect(lines[at + 1]).toMatch(/^ {2}resync: ws: moved to the other replica \(by design\) +\| 3$/);
    expect(lines[at + 2]).toMatch(/^ {2}resync: ws: replica restarted since \(by design\) +\| 1$/);
    expect(lines.find((l) => l.startsWith('stream clients'))).toMatch(/\| 6: 2, 2; 2, 0$/);
  });
});

describe('what the sinks said of the store', () => {
  it('counts the tables that stopped answering and answered again, and lists what each process said', () => {
    const f = clean();
    f.storeWaits = [
      'pipeline-a: odds_ticks stopped answering',
      'pipeline-b: odds_ticks stopped answering',
      'pipeline-a: odds_ticks answered again after 71 s',
    ];
    const lines = chaosTable(f).split('\n');
    const at = lines.findIndex((l) => l.startsWith('sinks waiting for the store '));
    expect(lines[at]?.endsWith('| 2 stopped answering, 1 answered again')).toBe(true);
    expect(lines.slice(at + 1, at + 4).map((l) => l.split('| ')[1])).toEqual(f.storeWaits);
    expect(chaosFailures(f)).toEqual([]);
  });
});

describe('why a resync happened', () => {
  const b = { name: 'api-b', url: 'http://127.0.0.1:1', generation: 2 };
  it('tells a move to the other replica, a restart and an expired window apart', () => {
    expect(resyncReason({ name: 'api-a', generation: 1 }, b)).toBe('moved to the other replica');
    expect(resyncReason({ name: 'api-b', generation: 1 }, b)).toBe('replica restarted since');
    expect(resyncReason({ name: 'api-b', generation: 2 }, b)).toBe('outside the replay window');
    expect(resyncReason(null, b)).toBe('no resume position yet (dropped during a snapshot)');
  });

  it('labels a WebSocket move or restart as by design, and never an SSE one', () => {
    expect(resyncLabel('ws', 'moved to the other replica')).toBe('ws: moved to the other replica (by design)');
    expect(resyncLabel('ws', 'outside the replay window')).toBe('ws: outside the replay window');
    expect(resyncLabel('sse', 'moved to the other replica')).toBe('sse: moved to the other replica');
  });
});

describe('a drain that timed out', () => {
  it('names each stage behind with its lag and the partitions it holds in that process, in name order', () => {
    const stats = {
      lag: { normalizer: 0, 'sink:odds_latest': 566, closing: 12, 'sink:odds_ticks': 0 },
      partitions: { normalizer: [0, 1], 'sink:odds_latest': [], closing: [1, 3], 'sink:odds_ticks': [2] },
    };
    expect(stagesBehind(stats)).toBe('closing 12 (partitions 1,3 here), sink:odds_latest 566 (no partition here)');
  });

  it('says when no stage is behind, and when /stats did not answer', () => {
    expect(stagesBehind({ lag: { closing: 0 }, partitions: { closing: [0] } })).toBe(
      'no stage behind (what remains is restores in flight)',
    );
    expect(stagesBehind(null)).toBe('/stats unreadable');
  });
});
