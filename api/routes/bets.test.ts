import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oddsRowKey } from '../../schemas/index.js';
import type { CanonicalEvent, ClosingLine, MarketId, OddsRow, SelectionType } from '../../schemas/index.js';
import { MemoryBus } from '../../pipeline/bus/index.js';
import { ManualClock } from '../../pipeline/clock.js';
import { closingRow, gameStateRow } from '../../pipeline/closing/index.js';
import { ChdbStore, applyMigrations } from '../../pipeline/store/index.js';
import { KeyStore } from '../accounts/index.js';
import { buildApp } from '../app.js';
import { startBets } from '../bets/index.js';
import type { BetsReplica } from '../bets/index.js';
import { MemoryRateLimitStore } from '../plugins/rate-limit.js';
import { LiveBoard } from '../views/board.js';
import { Catalog } from '../views/catalog.js';

const T = Date.UTC(2026, 8, 13, 12);
const START = T + 3_600_000;
const EVENT: CanonicalEvent = {
  id: 'nfl-ev-1',
  sport: 'football',
  league: 'nfl',
  homeTeamId: 'h',
  awayTeamId: 'a',
  startTime: START,
  status: 'upcoming',
  isLive: false,
  externalIds: {},
  updatedAt: T,
};

function row(book: string, market: MarketId, selection: SelectionType, priceAmerican: number, line: number | null): OddsRow {
  const ident = { eventId: EVENT.id, book, market, selection, line, participant: null, statCategory: null };
  const priceDecimal = priceAmerican > 0 ? 1 + priceAmerican / 100 : 1 + 100 / -priceAmerican;
  return {
    ...ident,
    id: `row-${book}-${market}-${selection}`,
    priceAmerican,
    priceDecimal,
    probability: 1 / priceDecimal,
    ts: T,
    oddsChangedAt: T,
    observedAt: T,
    isLive: false,
    bookEventId: `${book}-1`,
    selectionId: null,
    isActive: true,
    suspendedSince: null,
  };
}
const ROWS = [
  row('draftkings', 'point_spread', 'home', -110, -3.5),
  row('draftkings', 'point_spread', 'away', -110, 3.5),
  row('pinnacle', 'point_spread', 'home', -105, -3.5),
  row('pinnacle', 'point_spread', 'away', -115, 3.5),
  row('draftkings', 'moneyline', 'home', -180, null),
  row('draftkings', 'moneyline', 'away', 150, null),
  row('pinnacle', 'moneyline', 'home', -170, null),
  row('pinnacle', 'moneyline', 'away', 155, null),
];

function closeOf(r: OddsRow, priceAmerican: number, power: number): ClosingLine {
  return {
    rowKey: oddsRowKey(r),
    eventId: r.eventId,
    sport: EVENT.sport,
    league: EVENT.league,
    homeTeamId: 'h',
    awayTeamId: 'a',
    eventStartTime: START,
    book: r.book,
    market: r.market,
    participant: null,
    statCategory: null,
    selection: r.selection,
    line: r.line,
    priceAmerican,
    priceDecimal: 0,
    impliedProbability: 0,
    bookNoVigProbability: null,
    noVig: { power, multiplicative: null, additive: null, shin: null },
    referenceBooks: ['pinnacle'],
    oddsTs: START - 60_000,
    capturedAt: START,
  };
}

const OWNER = 'sk_live_owner_key_0000000000001';
const OTHER = 'sk_live_other_key_0000000000002';
const HOBBY = 'sk_live_hobby_key_0000000000003';

let dir: string;
let store: ChdbStore;
let bus: MemoryBus;
let replicas: BetsReplica[];
let clock: ManualClock;
let app: Awaited<ReturnType<typeof buildApp>>;
let ownerAccount = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'odds-bets-'));
  store = new ChdbStore(dir);
  await applyMigrations(store);
  bus = new MemoryBus();
  clock = new ManualClock(T);
  const logger = pino({ level: 'silent' });
  replicas = [
    await startBets({ bus, store, replicaId: 'a', logger, now: () => clock.now() }),
    await startBets({ bus, store, replicaId: 'b', logger, now: () => clock.now() }),
  ];
  const board = new LiveBoard({ now: () => clock.now() });
  board.applyEvent(EVENT);
  for (const r of ROWS) board.applyChange({ key: oddsRowKey(r), eventId: r.eventId, row: r, changedAt: T });
  const keys = new KeyStore();
  ownerAccount = keys.add(OWNER, 'pro').accountId;
  keys.add(OTHER, 'sharp');
  keys.add(HOBBY, 'hobby');
  app = await buildApp({
    board,
    catalog: new Catalog(),
    keys,
    bets: (replicas[0] as BetsReplica).bets,
    rateLimits: new MemoryRateLimitStore(),
    clock,
    store,
    version: 't',
    redisUrl: null,
  });
});

afterAll(async () => {
  await app.close();
  for (const r of replicas) await r.stop();
  await bus.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const as = (key: string) => ({ 'x-api-key': key });
const spreadBet = {
  event_id: EVENT.id,
  market: 'point_spread',
  selection: 'home',
  line: -3.5,
  sportsbook: 'draftkings',
  odds_american: 100,
  stake: 50,
};

async function post(key: string, payload: object) {
  return app.inject({ method: 'POST', url: '/api/v1/bets', headers: as(key), payload });
}
async function list(key: string, query = '') {
  return (await app.inject({ method: 'GET', url: `/api/v1/bets${query}`, headers: as(key) })).json<{
    data: Record<string, unknown>[];
    pagination: { total: number };
  }>();
}
const errorOf = (r: { statusCode: number; json: () => unknown }) => {
  const body = r.json() as { error: { code: string; message: string } };
  return [r.statusCode, body.error.code, body.error.message];
};

describe('the bet ledger', () => {
  let betId = '';

  it('logs a bet before kickoff as pending, for the account that logged it only', async () => {
    const r = await post(OWNER, spreadBet);
    expect(r.statusCode).toBe(201);
    const bet = r.json<{ data: Record<string, unknown> }>().data;
    betId = String(bet['id']);
    expect(bet).toMatchObject({
      event_id: EVENT.id,
      sport: 'football',
      league: 'nfl',
      market: 'point_spread',
      selection: 'home',
      line: -3.5,
      sportsbook: 'draftkings',
      odds_american: 100,
      odds_decimal: 2,
      stake: 50,
      placed_at: new Date(T).toISOString(),
      devig_method: 'power',
      sharp_book: null,
      status: 'pending',
      result: null,
      profit: null,
    });
    expect((await list(OWNER)).data.map((b) => b['id'])).toEqual([betId]);
    expect((await list(OTHER)).data).toEqual([]);
    const theirs = await app.inject({ method: 'DELETE', url: `/api/v1/bets/${betId}`, headers: as(OTHER) });
    expect(errorOf(theirs)).toEqual([404, 'not_found', `No bet '${betId}' in this account`]);
  });

  it('reaches every replica through the topic and is stored in the bets table', async () => {
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((replicas[1] as BetsReplica).bets.ledger.bet(ownerAccount, betId)?.stake).toBe(50);
    const stored = await store.query<{ n: number }>('SELECT count() AS n FROM bets FINAL WHERE id = {id:String}', { id: betId });
    expect(Number(stored[0]?.n)).toBe(1);
  });

  it('copies event, market, selection, line, book and price from an odds row', async () => {
    const r = await post(OWNER, {
      odds_row_id: 'row-draftkings-moneyline-away',
      stake: 10,
      sharp_book: 'pinnacle',
      devig_method: 'multiplicative',
      placed_at: new Date(T - 60_000).toISOString(),
    });
    expect(r.statusCode).toBe(201);
    expect(r.json<{ data: Record<string, unknown> }>().data).toMatchObject({
      market: 'moneyline',
      selection: 'away',
      line: null,
      sportsbook: 'draftkings',
      odds_american: 150,
      odds_decimal: 2.5,
      source_id: 'row-draftkings-moneyline-away',
      sharp_book: 'pinnacle',
      devig_method: 'multiplicative',
    });
  });

  it('answers bad input with the error envelope naming the field', async () => {
    expect(errorOf(await post(OWNER, { ...spreadBet, stake: undefined }))).toEqual([
      400,
      'invalid_request',
      expect.stringContaining('stake'),
    ]);
    expect(errorOf(await post(OWNER, { ...spreadBet, stake: -5 }))).toEqual([400, 'invalid_request', expect.stringContaining('stake')]);
    expect(errorOf(await post(OWNER, { ...spreadBet, sportsbook: 'nobook' }))).toEqual([
      400,
      'invalid_request',
      expect.stringContaining("'sportsbook'"),
    ]);
    expect(errorOf(await post(OWNER, { ...spreadBet, odds_decimal: 2 }))).toEqual([
      400,
      'invalid_request',
      expect.stringContaining("'odds_decimal'"),
    ]);
    expect(errorOf(await post(OWNER, { ...spreadBet, odds_american: 50 }))).toEqual([
      400,
      'invalid_request',
      expect.stringContaining("'odds_american'"),
    ]);
    expect(errorOf(await post(OWNER, { ...spreadBet, selection: 'over' }))).toEqual([
      400,
      'invalid_request',
      expect.stringContaining("'selection'"),
    ]);
    expect(errorOf(await post(OWNER, { ...spreadBet, line: null }))).toEqual([400, 'invalid_request', expect.stringContaining("'line'")]);
    expect(errorOf(await post(OWNER, { ...spreadBet, market: 'team_total', selection: 'over' }))).toEqual([
      400,
      'invalid_request',
      expect.stringContaining("'market'"),
    ]);
    expect(errorOf(await post(OWNER, { ...spreadBet, placed_at: new Date(T + 60_000).toISOString() }))).toEqual([
      400,
      'invalid_request',
      expect.stringContaining("'placed_at'"),
    ]);
    expect(errorOf(await post(OWNER, { odds_row_id: 'nope', stake: 1 }))).toEqual([
      400,
      'invalid_request',
      expect.stringContaining("'odds_row_id'"),
    ]);
    expect(errorOf(await post(OWNER, { ...spreadBet, event_id: 'nope' }))).toEqual([404, 'not_found', expect.stringContaining("'nope'")]);
    expect(errorOf(await post(HOBBY, spreadBet))).toEqual([403, 'feature_required', expect.stringContaining('pro tier')]);
    const badQuery = await app.inject({ method: 'GET', url: '/api/v1/bets?status=won', headers: as(OWNER) });
    expect(errorOf(badQuery)).toEqual([400, 'invalid_request', expect.stringContaining('status')]);
    const badDate = await app.inject({ method: 'GET', url: '/api/v1/bets?from=yesterday', headers: as(OWNER) });
    expect(errorOf(badDate)).toEqual([400, 'invalid_request', expect.stringContaining("'from'")]);
  });

  it('grades at the close and settles on the final score', async () => {
    const [dkHome, dkAway, pinHome, pinAway, mlHome, mlAway, pinMlHome, pinMlAway] = ROWS as OddsRow[] as [
      OddsRow,
      OddsRow,
      OddsRow,
      OddsRow,
      OddsRow,
      OddsRow,
      OddsRow,
      OddsRow,
    ];
    await store.insert('closing_odds', [
      closingRow(closeOf(dkHome, -120, 0.48), 1),
      closingRow(closeOf(dkAway, 100, 0.52), 1),
      closingRow(closeOf(pinHome, -110, 0.48), 1),
      closingRow(closeOf(pinAway, -110, 0.52), 1),
      closingRow(closeOf(mlHome, -200, 0.64), 1),
      closingRow(closeOf(mlAway, 170, 0.36), 1),
      closingRow(closeOf(pinMlHome, -110, 0.5), 1),
      closingRow(closeOf(pinMlAway, -110, 0.5), 1),
    ]);
    clock.set(START + 1000);
    const graded = (await list(OWNER, '?market=point_spread')).data[0] as Record<string, unknown>;
    // +100 (2.0) against a 48 % fair close: (0.48 x 2 - 1) x 100 = -4 %; the book closed at -120 (1.8333).
    expect(graded['status']).toBe('graded');
    expect(graded['clv']).toEqual({
      closing_odds_american: -120,
      closing_fair_probability: 0.48,
      fair_books: ['pinnacle'],
      price_clv_percent: Math.round((2 / (1 + 100 / 120) - 1) * 100 * 1e4) / 1e4,
      price_probability_edge: Math.round((120 / 220 - 0.5) * 1e6) / 1e6,
      no_vig_clv_percent: -4,
      no_vig_probability_edge: -0.02,
    });
    expect(graded['expected_profit']).toBe(-2);

    await store.insert('game_state', [
      gameStateRow({
        eventId: EVENT.id,
        sport: 'football',
        league: 'nfl',
        homeTeamId: 'h',
        awayTeamId: 'a',
        primaryBook: 'draftkings',
        bookCount: 2,
        updatedAt: START + 10_800_000,
        status: 'final',
        homeScore: 27,
        awayScore: 20,
        period: 'FT',
        clock: null,
        possession: null,
        server: null,
        lastPlay: null,
        extras: {},
      }),
    ]);
    const settled = (await list(OWNER)).data;
    expect(settled.map((b) => [b['market'], b['status'], b['result'], b['profit']])).toEqual([
      ['point_spread', 'settled', 'win', 50],
      ['moneyline', 'settled', 'loss', -10],
    ]);
    // The moneyline away at +150 (2.5) by Pinnacle's multiplicative close -110/-110: 0.5 x 2.5 - 1 = +25 %.
    expect((settled[1] as { clv: Record<string, unknown> }).clv['no_vig_clv_percent']).toBe(25);
  });

  it('summarises count, stake, profit, ROI and CLV, in total and by book, sport, market and month', async () => {
    const r = await app.inject({ method: 'GET', url: '/api/v1/bets/summary', headers: as(OWNER) });
    const data = r.json<{ data: Record<string, unknown> }>().data;
    expect(data['total']).toEqual({
      bets: 2,
      stake: 60,
      settled: 2,
      settled_stake: 60,
      profit: 40,
      roi_percent: Math.round((40 / 60) * 100 * 1e4) / 1e4,
      graded: 2,
      average_clv_percent: 10.5,
      average_price_clv_percent: expect.any(Number),
      beat_close_share: 0.5,
      expected_profit: 0.5,
    });
    expect((data['by_market'] as { key: string; profit: number }[]).map((g) => [g.key, g.profit])).toEqual([
      ['point_spread', 50],
      ['moneyline', -10],
    ]);
    expect((data['by_month'] as { key: string }[]).map((g) => g.key)).toEqual(['2026-09']);
    expect((data['by_sportsbook'] as { key: string; bets: number }[]).map((g) => [g.key, g.bets])).toEqual([['draftkings', 2]]);
  });

  it('deletes a bet on every replica', async () => {
    const r = await app.inject({ method: 'DELETE', url: `/api/v1/bets/${betId}`, headers: as(OWNER) });
    expect(r.statusCode).toBe(200);
    expect((await list(OWNER)).pagination.total).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((replicas[1] as BetsReplica).bets.ledger.bet(ownerAccount, betId)).toBeUndefined();
  });

  it('logs a bet placed in play: no CLV against the pre-match close, settled on the final score', async () => {
    // The close (home -120) and the final score (27-20) are in the store from the tests above.
    const r = await post(OWNER, { ...spreadBet, odds_american: 110, placed_at: new Date(START + 500).toISOString() });
    expect(r.statusCode).toBe(201);
    const bet = r.json<{ data: Record<string, unknown> }>().data;
    expect(bet).toMatchObject({ placed_in_play: true, status: 'settled', result: 'win', profit: 55, expected_profit: null });
    expect(bet['clv']).toEqual({
      closing_odds_american: null,
      closing_fair_probability: null,
      fair_books: [],
      price_clv_percent: null,
      price_probability_edge: null,
      no_vig_clv_percent: null,
      no_vig_probability_edge: null,
    });
    const before = (await list(OWNER)).data.find((b) => b['id'] !== bet['id']);
    expect(before?.['placed_in_play']).toBe(false);
  });
});
