import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:tls';
import type { Server, TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeadLetter, RawTick } from '../../../schemas/index.js';
import { ManualClock } from '../../clock.js';
import { silentLogger } from '../feed-runtime.js';
import type { FeedLogger } from '../feed-runtime.js';
import { catalogueOf, readCatalogue } from './catalogue.js';
import { FixedCatalogue } from './catalogue-source.js';
import { selfSignedPem } from './fixtures/self-signed.js';
import { BetfairStreamFeed } from './stream-feed.js';
import type { BetfairStreamStats } from './stream-feed.js';

/**
 * The stream feed against a local TLS server that speaks the protocol and plays the first 1,200
 * messages of the recorded cricket market (pre-match trading, the suspension and the turn in play).
 */

/** The recordings live beside the project (`../shared/data` from the repo root), never in it. */
const DATA = join(import.meta.dirname, '../../../../shared/data');
const RECORDING_FILE = join(DATA, 'betfair_stream_1.200806927_cricket_match_odds.jsonl');
const CATALOGUE_FILE = join(DATA, 'betfair_catalogue_1.200806927.json');
const present = existsSync(RECORDING_FILE) && existsSync(CATALOGUE_FILE);
if (!present) console.warn(`skipping the Betfair stream test: ${RECORDING_FILE} is absent`);
const RECORDING = present ? readFileSync(RECORDING_FILE, 'utf8').split('\n').slice(0, 1200) : [];
const CATALOGUE = catalogueOf(present ? readCatalogue(JSON.parse(readFileSync(CATALOGUE_FILE, 'utf8'))) : []);
const LAST_CLK = present ? (JSON.parse(RECORDING.at(-1) ?? '') as { clk: string }).clk : '';
const APP_KEY = 'test-app-key';
const SESSION = 'test-session-token';

interface Script {
  /** Close the first connection after this many messages, in the middle of the next one. */
  dropAfter?: number;
  /** Answer the first authentication with this error code. */
  refuseFirstWith?: string;
  /** Lines sent in place of the recording's line at these indexes (the recorded line follows). */
  inject?: ReadonlyMap<number, string>;
}

interface FakeStream {
  port: number;
  subscriptions: Record<string, unknown>[];
  close(): Promise<void>;
}

let certDir = '';
let key = '';
let cert = '';

beforeAll(() => {
  if (!present) return;
  certDir = mkdtempSync(join(tmpdir(), 'betfair-tls-'));
  ({ key, cert } = selfSignedPem(certDir, 'server', '127.0.0.1', 'IP:127.0.0.1'));
});

afterAll(() => {
  if (certDir !== '') rmSync(certDir, { recursive: true, force: true });
});

/** Betfair's side of the protocol, as far as the feed uses it; resumes after the message whose `clk` it is given. */
async function fakeStream(script: Script = {}): Promise<FakeStream> {
  const subscriptions: Record<string, unknown>[] = [];
  let connections = 0;
  const sockets = new Set<TLSSocket>();
  const server: Server = createServer({ key, cert }, (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    const connection = ++connections;
    const send = (message: Record<string, unknown>): boolean => socket.write(`${JSON.stringify(message)}\r\n`);
    send({ op: 'connection', connectionId: `test-${connection}` });
    let buffered = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      let end: number;
      while ((end = buffered.indexOf('\r\n')) >= 0) {
        const request = JSON.parse(buffered.slice(0, end)) as Record<string, unknown>;
        buffered = buffered.slice(end + 2);
        if (request['op'] === 'authentication') {
          if (connection === 1 && script.refuseFirstWith !== undefined) {
            send({
              op: 'status',
              id: request['id'],
              statusCode: 'FAILURE',
              errorCode: script.refuseFirstWith,
              errorMessage: 'refused by the test',
              connectionClosed: true,
            });
            socket.end();
          } else if (request['appKey'] !== APP_KEY || request['session'] !== SESSION) {
            send({
              op: 'status',
              id: request['id'],
              statusCode: 'FAILURE',
              errorCode: 'INVALID_SESSION_INFORMATION',
              errorMessage: 'session expired',
              connectionClosed: true,
            });
            socket.end();
          } else send({ op: 'status', id: request['id'], statusCode: 'SUCCESS', connectionClosed: false });
        } else if (request['op'] === 'marketSubscription') {
          subscriptions.push(request);
          send({ op: 'status', id: request['id'], statusCode: 'SUCCESS', connectionClosed: false });
          play(socket, connection, request);
        } else if (request['op'] === 'heartbeat') send({ op: 'status', id: request['id'], statusCode: 'SUCCESS', connectionClosed: false });
      }
    });
  });

  function play(socket: TLSSocket, connection: number, request: Record<string, unknown>): void {
    const resumeAt =
      typeof request['clk'] === 'string' ? RECORDING.findIndex((l) => l.includes(`"clk":"${request['clk'] as string}"`)) + 1 : 0;
    for (let i = resumeAt; i < RECORDING.length; i++) {
      const message = JSON.parse(RECORDING[i] ?? '') as Record<string, unknown>;
      if (i === resumeAt) Object.assign(message, resumeAt === 0 ? { ct: 'SUB_IMAGE', initialClk: 'initial' } : { ct: 'RESUB_DELTA' });
      const line = `${JSON.stringify(message)}\r\n`;
      if (connection === 1 && script.dropAfter === i) {
        socket.end(line.slice(0, line.length / 2));
        return;
      }
      const injected = script.inject?.get(i);
      if (injected !== undefined) socket.write(`${injected}\r\n`);
      socket.write(line);
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    subscriptions,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

interface Run {
  ticks: RawTick[];
  deadLetters: DeadLetter[];
  stats: BetfairStreamStats;
  backoffs: number[];
  ladders: unknown;
  subscriptions: Record<string, unknown>[];
}

async function until(cond: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function run(
  script: Script,
  credentials: { appKey: string; sessionToken: string; renewSession?: () => Promise<string> } = { appKey: APP_KEY, sessionToken: SESSION },
  untilDone = true,
  logger: FeedLogger = silentLogger,
): Promise<Run> {
  const server = await fakeStream(script);
  const ticks: RawTick[] = [];
  const deadLetters: DeadLetter[] = [];
  const backoffs: number[] = [];
  const feed = new BetfairStreamFeed({
    host: '127.0.0.1',
    port: server.port,
    ...credentials,
    marketFilter: { eventTypeIds: ['4'], marketTypes: ['MATCH_ODDS'] },
    dataFilter: { fields: ['EX_ALL_OFFERS', 'EX_TRADED', 'EX_TRADED_VOL', 'EX_LTP', 'EX_MARKET_DEF'] },
    book: 'betfair_ex_eu',
    catalogue: new FixedCatalogue(CATALOGUE),
    clock: new ManualClock(0),
    tls: { ca: cert },
    logger,
    sleep: (ms) => {
      backoffs.push(ms);
      return Promise.resolve();
    },
  });
  feed.onDeadLetter((letters) => {
    deadLetters.push(...letters);
    return Promise.resolve();
  });
  await feed.start((batch) => {
    ticks.push(...batch);
    return Promise.resolve();
  });
  try {
    if (untilDone) await until(() => feed.resumeClocks.clk === LAST_CLK);
    else await feed.done;
  } finally {
    await feed.stop();
    await server.close();
  }
  const market = feed.markets.get('1.200806927');
  const ladders = [...(market?.runners.values() ?? [])].map((r) => ({
    id: r.id,
    atb: new Map(r.atb),
    atl: new Map(r.atl),
    trd: new Map(r.trd),
    ltp: r.ltp,
    tv: r.tv,
  }));
  return { ticks, deadLetters, stats: feed.stats, backoffs, ladders, subscriptions: server.subscriptions };
}

describe.skipIf(!present)('BetfairStreamFeed over TLS', () => {
  let straight: Run;
  beforeAll(async () => {
    straight = await run({});
  });

  it('authenticates, subscribes with the filters and turns the recording into ticks', () => {
    expect(straight.subscriptions).toHaveLength(1);
    expect(straight.subscriptions[0]).toMatchObject({
      op: 'marketSubscription',
      segmentationEnabled: true,
      marketFilter: { eventTypeIds: ['4'], marketTypes: ['MATCH_ODDS'] },
    });
    expect(straight.subscriptions[0]).not.toHaveProperty('clk');
    expect(straight.stats).toMatchObject({ connections: 1, subscriptions: 1, changes: 1200, deadLetters: 0, error: null });
    expect(straight.ticks.length).toBeGreaterThan(100);
    expect(straight.ticks.filter((t) => t.isLive).length).toBeGreaterThan(0);
    expect(straight.ticks.find((t) => t.status === 'suspended' && t.priceAmerican !== null)).toBeDefined();
  });

  it('resumes a dropped connection by clock: the same ticks and ladders as without the drop, nothing twice, nothing missed', async () => {
    const dropped = await run({ dropAfter: 700 });
    expect(dropped.stats).toMatchObject({ connections: 2, subscriptions: 2, changes: 1200, deadLetters: 0 });
    const recordedClk = (JSON.parse(RECORDING[699] ?? '') as { clk: string }).clk;
    expect(dropped.subscriptions[1]).toMatchObject({ initialClk: 'initial', clk: recordedClk });
    expect(dropped.backoffs).toEqual([1000]);
    expect(dropped.ticks).toEqual(straight.ticks);
    expect(dropped.ladders).toEqual(straight.ladders);
  });

  it('sends bad and truncated messages to the dead-letter path with the reason, and goes on', async () => {
    const bad = await run({
      inject: new Map([
        [10, '{"op":"mcm","clk":"x","pt":1657018215951,"mc":[{"id":"1.200806927","rc":[{"atb":[[1.5]],"id":228749}]}]}'],
        [20, '{"op":"mcm","pt":16570182'],
      ]),
    });
    expect(bad.deadLetters.map((d) => [d.topic, d.key, d.reason])).toEqual([
      ['betfair.stream', '1.200806927', 'mc[0].rc[0].atb[0] is not 2 numbers'],
      ['betfair.stream', '', 'not JSON'],
    ]);
    expect(Buffer.from(bad.deadLetters[1]?.payloadBase64 ?? '', 'base64').toString()).toBe('{"op":"mcm","pt":16570182');
    expect(bad.ticks).toEqual(straight.ticks);
  });

  it('retries after TOO_MANY_REQUESTS with a backoff', async () => {
    const limited = await run({ refuseFirstWith: 'TOO_MANY_REQUESTS' });
    expect(limited.stats).toMatchObject({
      connections: 2,
      subscriptions: 1,
      lastFailure: 'TOO_MANY_REQUESTS: refused by the test',
      error: null,
    });
    expect(limited.backoffs).toEqual([1000]);
    expect(limited.ticks).toEqual(straight.ticks);
  });

  it('stops on an invalid session, saying why, without retrying and without logging the token', async () => {
    const lines: string[] = [];
    const record = (fields: Record<string, unknown>, msg: string): void => void lines.push(`${msg} ${JSON.stringify(fields)}`);
    const refused = await run({}, { appKey: APP_KEY, sessionToken: 'expired-token' }, false, { info: record, warn: record, error: record });
    expect(refused.stats).toMatchObject({
      connections: 1,
      subscriptions: 0,
      error: 'the stream refused the connection: INVALID_SESSION_INFORMATION: session expired',
    });
    expect(refused.backoffs).toEqual([]);
    expect(lines.join('\n')).toContain('INVALID_SESSION_INFORMATION');
    expect(lines.join('\n')).not.toContain('expired-token');
  });

  it('logs in again when the session has expired and goes on from the same place, without a backoff', async () => {
    const lines: string[] = [];
    const record = (fields: Record<string, unknown>, msg: string): void => void lines.push(`${msg} ${JSON.stringify(fields)}`);
    let logins = 0;
    const renewSession = (): Promise<string> => {
      logins += 1;
      return Promise.resolve(SESSION);
    };
    const renewed = await run({}, { appKey: APP_KEY, sessionToken: 'expired-token', renewSession }, true, {
      info: record,
      warn: record,
      error: record,
    });
    expect(logins).toBe(1);
    expect(renewed.stats).toMatchObject({
      connections: 2,
      subscriptions: 1,
      lastFailure: 'INVALID_SESSION_INFORMATION: session expired',
      error: null,
    });
    expect(renewed.backoffs).toEqual([]);
    expect(renewed.ticks).toEqual(straight.ticks);
    expect(lines.join('\n')).not.toContain('expired-token');
    expect(lines.join('\n')).not.toContain(SESSION);
  });

  it('stops, saying why, when logging in again fails', async () => {
    const renewSession = (): Promise<string> => Promise.reject(new Error('certificate login refused: INVALID_USERNAME_OR_PASSWORD'));
    const refused = await run({}, { appKey: APP_KEY, sessionToken: 'expired-token', renewSession }, false);
    expect(refused.stats).toMatchObject({
      connections: 1,
      subscriptions: 0,
      error: 'the session expired and logging in again failed: certificate login refused: INVALID_USERNAME_OR_PASSWORD',
    });
  });

  it('stops rather than logging in over and over when the new session is refused too', async () => {
    let logins = 0;
    const renewSession = (): Promise<string> => {
      logins += 1;
      return Promise.resolve('also-refused');
    };
    const refused = await run({}, { appKey: APP_KEY, sessionToken: 'expired-token', renewSession }, false);
    expect(logins).toBe(1);
    expect(refused.stats).toMatchObject({
      connections: 2,
      subscriptions: 0,
      error: 'the stream refused the connection: INVALID_SESSION_INFORMATION: session expired',
    });
  });
});
