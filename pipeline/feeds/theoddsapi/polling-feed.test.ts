import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RawTick } from '../../../schemas/index.js';
import { ManualClock } from '../../clock.js';
import { TheOddsApiPollingFeed } from './polling-feed.js';
import type { PollingFeedOptions } from './polling-feed.js';
import { parseRecordingLine } from './recording.js';
import type { FeedLogger, Sleep } from '../feed-runtime.js';

const API_KEY = 'secret-key-0123456789';
const NOW = Date.parse('2025-11-16T00:00:00Z');
const RESET = Date.parse('2025-12-01T00:00:00Z');
const NEXT_RESET = Date.parse('2026-01-01T00:00:00Z');
const DAYS_15 = RESET - NOW;

/** The fixture's snapshots, served as live responses. */
const SNAPSHOTS = readFileSync(new URL('./fixtures/nfl-sunday.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line !== '')
  .map((line) => JSON.stringify(parseRecordingLine(line)?.data));

interface Reply {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  /** Drop the connection instead of answering. */
  destroy?: boolean;
}

const credits = (remaining: number, used = 0, last = 3): Record<string, string> => ({
  'x-requests-remaining': String(remaining),
  'x-requests-used': String(used),
  'x-requests-last': String(last),
});

let server: Server;
let baseUrl = '';
let requests: URL[] = [];
/** Replies per sport key, in order; when a queue runs dry the last reply repeats. */
let replies: Record<string, Reply[]> = {};

beforeEach(async () => {
  requests = [];
  replies = {};
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(url);
    const sport = url.pathname.split('/')[3] ?? '';
    const queue = replies[sport] ?? [];
    const reply = (queue.length > 1 ? queue.shift() : queue[0]) ?? { status: 404, body: '{"message":"Unknown sport"}' };
    if (reply.destroy === true) {
      req.socket.destroy();
      return;
    }
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
    res.end(reply.body ?? '[]');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

interface LogLine {
  level: string;
  msg: string;
  fields: Record<string, unknown>;
}

interface Harness {
  feed: TheOddsApiPollingFeed;
  clock: ManualClock;
  sleeps: number[];
  batches: RawTick[][];
  logs: LogLine[];
}

/** A feed whose sleeps return at once and move the manual clock on by what they were asked. */
function harness(
  over: Partial<PollingFeedOptions> = {},
  emit?: (ticks: RawTick[]) => Promise<void>,
): Harness & { start: () => Promise<void> } {
  const clock = new ManualClock(NOW);
  const sleeps: number[] = [];
  const batches: RawTick[][] = [];
  const logs: LogLine[] = [];
  const log =
    (level: string) =>
    (fields: Record<string, unknown>, msg: string): void => {
      logs.push({ level, msg, fields });
    };
  const logger: FeedLogger = { info: log('info'), warn: log('warn'), error: log('error') };
  const sleep: Sleep = async (ms) => {
    sleeps.push(ms);
    clock.advance(ms);
    await new Promise((resolve) => setTimeout(resolve, 1));
  };
  const feed = new TheOddsApiPollingFeed({
    apiKey: API_KEY,
    baseUrl,
    sports: ['americanfootball_nfl'],
    regions: ['us'],
    clock,
    sleep,
    logger,
    random: () => 0,
    ...over,
  });
  const start = (): Promise<void> =>
    feed.start(
      emit ??
        (async (ticks) => {
          batches.push(ticks);
        }),
    );
  return { feed, clock, sleeps, batches, logs, start };
}

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

describe('TheOddsApiPollingFeed', () => {
  it('polls the odds endpoint in American odds and emits the diff of successive responses', async () => {
    replies['americanfootball_nfl'] = [
      { body: SNAPSHOTS[0], headers: credits(19_997, 3) },
      { body: SNAPSHOTS[1], headers: credits(19_994, 6) },
      { body: SNAPSHOTS[1], headers: credits(19_991, 9) },
    ];
    const h = harness({ regions: ['us', 'us2'] });
    await h.start();
    await waitFor(() => h.feed.stats.successes >= 3);
    await h.feed.stop();

    const first = requests[0];
    expect(first?.pathname).toBe('/v4/sports/americanfootball_nfl/odds');
    expect(Object.fromEntries(first?.searchParams ?? [])).toEqual({
      apiKey: API_KEY,
      regions: 'us,us2',
      markets: 'h2h,spreads,totals',
      oddsFormat: 'american',
      dateFormat: 'iso',
    });
    // The whole board, then the moves; the repeated response adds nothing.
    expect(h.batches.map((b) => b.length)).toEqual([20, 4]);
    expect(h.feed.stats).toMatchObject({
      successes: 3,
      credits: { remaining: 19_991, used: 9, last: 3, spentThisPeriod: 9 },
      mapping: { snapshots: 3, ticks: 24 },
    });
    expect(JSON.stringify(h.logs)).not.toContain(API_KEY);
  });

  it('stretches the interval as the remaining credits run low', async () => {
    replies['americanfootball_nfl'] = [
      { body: SNAPSHOTS[0], headers: credits(60_000) },
      { body: SNAPSHOTS[0], headers: credits(6_000) },
    ];
    const h = harness();
    await h.start();
    await waitFor(() => h.sleeps.length >= 2);
    await h.feed.stop();
    // 3 credits a cycle. 60,000 credits: 20,000 cycles over 15 days = 64.8 s.
    // 6,000 credits: 2,000 cycles over what is left of the 15 days.
    expect(h.sleeps.slice(0, 2)).toEqual([64_800, Math.ceil((DAYS_15 - 64_800) / 2_000)]);
  });

  it('pauses until the period resets when the credits run out, and logs it once', async () => {
    replies['americanfootball_nfl'] = [
      { body: SNAPSHOTS[0], headers: credits(2, 19_998) },
      {
        status: 401,
        body: '{"message":"Usage quota has been reached","error_code":"OUT_OF_USAGE_CREDITS"}',
        headers: credits(0, 20_000, 0),
      },
      { body: SNAPSHOTS[0], headers: credits(19_997, 3) },
    ];
    const h = harness();
    await h.start();
    await waitFor(() => h.sleeps.length >= 3);
    await h.feed.stop();
    expect(h.sleeps.slice(0, 2)).toEqual([RESET - NOW, NEXT_RESET - RESET]);
    expect(h.logs.filter((l) => l.msg.includes('exhausted'))).toHaveLength(1);
    expect(h.feed.stats.errors.unauthorized).toBe(0);
    expect(h.feed.stats.stoppedSports).toEqual([]);
  });

  it('backs off for as long as Retry-After says on a 429', async () => {
    replies['americanfootball_nfl'] = [
      { status: 429, body: '{"message":"Too many requests"}', headers: { 'retry-after': '7' } },
      { body: SNAPSHOTS[0], headers: credits(60_000) },
    ];
    const h = harness();
    await h.start();
    await waitFor(() => h.sleeps.length >= 2);
    await h.feed.stop();
    expect(h.sleeps.slice(0, 2)).toEqual([7_000, 64_800]);
    expect(h.feed.stats.errors.rateLimited).toBe(1);
    expect(h.batches[0]).toHaveLength(20);
  });

  it('retries a 500 with exponential backoff', async () => {
    replies['americanfootball_nfl'] = [
      { status: 500, body: 'Internal Server Error' },
      { status: 503, body: '' },
      { body: SNAPSHOTS[0], headers: credits(60_000) },
    ];
    const h = harness({ backoffBaseMs: 2_000 });
    await h.start();
    await waitFor(() => h.sleeps.length >= 3);
    await h.feed.stop();
    // Jitter fixed at 0: half of 2 s, half of 4 s, then the planned interval.
    expect(h.sleeps.slice(0, 3)).toEqual([1_000, 2_000, 64_800]);
    expect(h.feed.stats.errors.server).toBe(2);
  });

  it('stops polling a sport on 401 and keeps polling the others', async () => {
    replies['americanfootball_nfl'] = [{ status: 401, body: '{"message":"API key is not valid","error_code":"INVALID_KEY"}' }];
    replies['basketball_nba'] = [{ body: '[]', headers: credits(60_000) }];
    const h = harness({ sports: ['americanfootball_nfl', 'basketball_nba'] });
    await h.start();
    await waitFor(() => requests.filter((r) => r.pathname.includes('basketball_nba')).length >= 3);
    await h.feed.stop();
    expect(requests.filter((r) => r.pathname.includes('americanfootball_nfl'))).toHaveLength(1);
    expect(h.feed.stats.stoppedSports).toEqual(['americanfootball_nfl']);
    expect(h.feed.stats.errors.unauthorized).toBe(1);
    const error = h.logs.find((l) => l.level === 'error');
    expect(error?.msg).toContain('rejected the API key');
    expect(JSON.stringify(h.logs)).not.toContain(API_KEY);
  });

  it('counts invalid JSON and a non-array body, and retries', async () => {
    replies['americanfootball_nfl'] = [
      { body: '[{"id": "evt-1", ', headers: credits(60_000) },
      { body: '{"unexpected": true}', headers: credits(60_000) },
      { body: SNAPSHOTS[0], headers: credits(60_000) },
    ];
    const h = harness();
    await h.start();
    await waitFor(() => h.batches.length >= 1);
    await h.feed.stop();
    expect(h.feed.stats.errors).toMatchObject({ invalidJson: 1, invalidBody: 1 });
    expect(h.sleeps.slice(0, 2)).toEqual([1_000, 2_000]);
    expect(h.batches[0]).toHaveLength(20);
  });

  it('survives a dropped connection and a throwing fetch without logging the key', async () => {
    replies['americanfootball_nfl'] = [{ destroy: true }, { body: SNAPSHOTS[0], headers: credits(60_000) }];
    const h = harness();
    await h.start();
    await waitFor(() => h.batches.length >= 1);
    await h.feed.stop();
    expect(h.feed.stats.errors.network).toBe(1);

    const throwing = harness({
      fetch: async (input) => {
        throw new Error(`getaddrinfo ENOTFOUND for ${String(input)}`);
      },
    });
    await throwing.start();
    await waitFor(() => throwing.feed.stats.errors.network >= 2);
    await throwing.feed.stop();
    expect(throwing.logs[1]?.msg).toBe('The Odds API request failed; retrying later');
    expect(JSON.stringify(throwing.logs)).not.toContain(API_KEY);
    expect(JSON.stringify(throwing.logs)).toContain('apiKey=***');
  });

  it('diffs against the last emitted snapshot when emit fails', async () => {
    replies['americanfootball_nfl'] = [{ body: SNAPSHOTS[0], headers: credits(60_000) }];
    const batches: number[] = [];
    let calls = 0;
    const h = harness({}, async (ticks) => {
      calls += 1;
      if (calls === 1) throw new Error('bus down');
      batches.push(ticks.length);
    });
    await h.start();
    await waitFor(() => batches.length >= 1 && h.feed.stats.successes >= 2);
    await h.feed.stop();
    expect(batches).toEqual([20]);
    expect(h.feed.stats.errors.emit).toBe(1);
  });

  it('resolves stop while a long wait is pending, with no emit after it', async () => {
    replies['americanfootball_nfl'] = [{ body: SNAPSHOTS[0], headers: credits(60_000) }];
    const batches: number[] = [];
    const feed = new TheOddsApiPollingFeed({
      apiKey: API_KEY,
      baseUrl,
      sports: ['americanfootball_nfl'],
      regions: ['us'],
      clock: new ManualClock(NOW),
      logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
    });
    await feed.start(async (ticks) => {
      batches.push(ticks.length);
    });
    await waitFor(() => batches.length >= 1);
    const started = Date.now();
    await feed.stop();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(batches).toEqual([20]);
  });
});
