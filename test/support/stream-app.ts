import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { CanonicalEvent, MarketId, OddsRow, SelectionType, TierName } from '../../schemas/index.js';
import { oddsRowKey } from '../../schemas/index.js';
import { ManualClock } from '../../pipeline/clock.js';
import type { OlapStore } from '../../pipeline/store/index.js';
import { buildApp } from '../../api/app.js';
import { KeyStore } from '../../api/accounts/index.js';
import { MemoryRateLimitStore } from '../../api/plugins/rate-limit.js';
import type { AlertFollower, StreamService, StreamSettings } from '../../api/stream/index.js';
import { LiveBoard } from '../../api/views/board.js';
import { Catalog } from '../../api/views/catalog.js';
import { GameStateBoard } from '../../api/views/gamestate-board.js';
import { OpportunityBoard } from '../../api/views/opportunity-board.js';
import { SplitsBoard } from '../../api/views/splits-board.js';
import { TierViews } from '../../api/views/tier-views.js';

/** The store is only read by /health; stream tests never call it. */
const noStore: OlapStore = {
  kind: 'chdb',
  exec: async () => undefined,
  insert: async () => undefined,
  query: async () => [],
  close: async () => undefined,
};

export interface StreamApp {
  app: FastifyInstance;
  url: string;
  wsUrl: string;
  board: LiveBoard;
  views: TierViews;
  splits: SplitsBoard;
  gameStates: GameStateBoard;
  clock: ManualClock;
  keys: Record<TierName, string>;
  keyStore: KeyStore;
  service: StreamService;
  /** Applies a row (upsert) or removes it (null price). */
  set(
    eventId: string,
    book: string,
    market: MarketId,
    selection: SelectionType,
    priceDecimal: number | null,
    line?: number | null,
  ): OddsRow | null;
  /** Suspends a row the board holds: it stays at its price, inactive (the pipeline's lock). */
  lock(eventId: string, book: string, market: MarketId, selection: SelectionType, line?: number | null): OddsRow;
  close(): Promise<void>;
}

export const T0 = Date.UTC(2026, 10, 22, 12);

export function fixtureEvent(id: string, league = 'nba', startTime = T0 + 3600_000, isLive = false): CanonicalEvent {
  return {
    id,
    sport: league === 'nfl' ? 'football' : 'basketball',
    league,
    homeTeamId: 'nba-lal',
    awayTeamId: 'nba-bos',
    startTime,
    status: isLive ? 'live' : 'upcoming',
    isLive,
    externalIds: {},
    updatedAt: T0,
  };
}

/** The API alone (no pipeline) on 127.0.0.1, over a board the test writes to directly. */
export async function startStreamApp(settings: Partial<StreamSettings> = {}, more: { alerts?: AlertFollower } = {}): Promise<StreamApp> {
  const clock = new ManualClock(T0);
  const board = new LiveBoard({ now: () => clock.now() });
  const views = new TierViews(board, clock, { syncEveryMs: 20 });
  const splits = new SplitsBoard(clock, { syncEveryMs: 20 });
  const gameStates = new GameStateBoard();
  const keyStore = new KeyStore();
  const keys = {} as Record<TierName, string>;
  for (const tier of ['free', 'hobby', 'pro', 'sharp', 'enterprise'] as const) {
    keys[tier] = `${tier}_stream_test_key`;
    keyStore.add(keys[tier], tier, { requestsPerMinute: 1_000_000 });
  }
  let service: StreamService | null = null;
  const app = await buildApp({
    board,
    views,
    splits,
    gameStates,
    catalog: new Catalog(),
    opportunities: new OpportunityBoard(),
    keys: keyStore,
    rateLimits: new MemoryRateLimitStore(),
    clock,
    store: noStore,
    version: 'test',
    redisUrl: null,
    stream: { heartbeatMs: 60_000, ...settings },
    ...(more.alerts ? { alerts: more.alerts } : {}),
    onStreams: (s) => {
      service = s;
    },
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const set: StreamApp['set'] = (eventId, book, market, selection, priceDecimal, line = null) => {
    const ident = { eventId, book, market, selection, line, participant: null, statCategory: null };
    const key = oddsRowKey(ident);
    if (priceDecimal === null) {
      board.applyChange({ key, eventId, row: null, changedAt: clock.now() });
      return null;
    }
    const american = priceDecimal >= 2 ? Math.round((priceDecimal - 1) * 100) : Math.round(-100 / (priceDecimal - 1));
    const row: OddsRow = {
      ...ident,
      id: createHash('sha1').update(key).digest('hex').slice(0, 16),
      priceAmerican: american,
      priceDecimal,
      probability: 1 / priceDecimal,
      ts: clock.now(),
      oddsChangedAt: clock.now(),
      observedAt: clock.now(),
      isLive: false,
      bookEventId: `${book}-${eventId}`,
      selectionId: null,
      isActive: true,
      suspendedSince: null,
    };
    board.applyChange({ key, eventId, row, changedAt: clock.now() });
    return row;
  };
  const lock: StreamApp['lock'] = (eventId, book, market, selection, line = null) => {
    const key = oddsRowKey({ eventId, book, market, selection, line, participant: null, statCategory: null });
    const held = board.row(eventId, key);
    if (!held) throw new Error(`no row ${key} to lock`);
    const row: OddsRow = { ...held, isActive: false, suspendedSince: clock.now() };
    board.applyChange({ key, eventId, row, changedAt: clock.now() });
    return row;
  };
  return {
    app,
    url,
    wsUrl: url.replace(/^http/, 'ws'),
    board,
    views,
    splits,
    gameStates,
    clock,
    keys,
    keyStore,
    get service(): StreamService {
      if (!service) throw new Error('no stream service');
      return service;
    },
    set,
    lock,
    async close() {
      await app.close();
      views.close();
      splits.close();
    },
  };
}
