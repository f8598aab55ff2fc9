import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import type { FeedRecord, RawTick, TierName } from '../../schemas/index.js';
import { ManualClock } from '../../pipeline/clock.js';
import { ScriptedFeed } from './scripted-feed.js';
import { startTestSystem } from './system.js';
import type { TestSystem } from './system.js';
import type { SystemOverrides } from '../../runtime/system.js';

/**
 * A small board that exercises the contract: three events (NBA pre-match with spreads, totals
 * and a player prop; NFL pre-match; EPL live, three-way), books of every tier (the free pair,
 * hobby books in and out of hobby's default set, pro books in and out of pro's default set).
 */
export function fixtureTicks(now: number): RawTick[] {
  const t0 = now + 24 * 3600_000;
  const ts = now - 1000;
  const base = {
    sport: 'basketball',
    league: 'nba',
    homeTeam: 'Los Angeles Lakers',
    awayTeam: 'Boston Celtics',
    startTime: t0,
    isLive: false,
    line: null,
    participant: null,
    statCategory: null,
    status: 'open' as const,
    ts,
    selectionId: null,
  };
  const nba = (
    book: string,
    bookEventId: string,
    market: RawTick['market'],
    outcome: string,
    price: number,
    extra: Partial<RawTick> = {},
  ): RawTick => ({ ...base, book, bookEventId, market, outcome, priceAmerican: price, ...extra });
  const ml = (book: string, id: string, home: number, away: number): RawTick[] => [
    nba(book, id, 'moneyline', 'Los Angeles Lakers', home),
    nba(book, id, 'moneyline', 'Boston Celtics', away),
  ];
  const nfl = (book: string, id: string, home: number, away: number): RawTick[] => [
    {
      ...base,
      sport: 'football',
      league: 'nfl',
      homeTeam: 'Kansas City Chiefs',
      awayTeam: 'Buffalo Bills',
      startTime: t0 + 3600_000,
      book,
      bookEventId: id,
      market: 'moneyline',
      outcome: 'Kansas City Chiefs',
      priceAmerican: home,
    },
    {
      ...base,
      sport: 'football',
      league: 'nfl',
      homeTeam: 'Kansas City Chiefs',
      awayTeam: 'Buffalo Bills',
      startTime: t0 + 3600_000,
      book,
      bookEventId: id,
      market: 'moneyline',
      outcome: 'Buffalo Bills',
      priceAmerican: away,
    },
  ];
  const epl = (book: string, id: string, outcome: string, price: number): RawTick => ({
    ...base,
    sport: 'soccer',
    league: 'epl',
    homeTeam: 'Arsenal',
    awayTeam: 'Chelsea',
    startTime: now - 1800_000,
    isLive: true,
    book,
    bookEventId: id,
    market: 'moneyline',
    outcome,
    priceAmerican: price,
  });
  return [
    ...ml('pinnacle', 'p-100', -120, 110),
    ...ml('draftkings', 'dk-100', -125, 105),
    ...ml('fanduel', 'fd-100', -118, 100),
    ...ml('betmgm', 'mgm-100', -130, 110),
    ...ml('espnbet', 'esp-100', -115, -105),
    ...ml('bovada', 'bov-100', -122, 102),
    nba('draftkings', 'dk-100', 'point_spread', 'Los Angeles Lakers', -110, { line: -2.5, selectionId: 'dk-sel-1' }),
    nba('draftkings', 'dk-100', 'point_spread', 'Boston Celtics', -110, { line: 2.5 }),
    nba('pinnacle', 'p-100', 'point_spread', 'Los Angeles Lakers', -105, { line: -2.5 }),
    nba('pinnacle', 'p-100', 'point_spread', 'Boston Celtics', -105, { line: 2.5 }),
    nba('fanduel', 'fd-100', 'total_points', 'Over', -110, { line: 228.5 }),
    nba('fanduel', 'fd-100', 'total_points', 'Under', -110, { line: 228.5 }),
    nba('pinnacle', 'p-100', 'total_points', 'Over', -104, { line: 228.5 }),
    nba('pinnacle', 'p-100', 'total_points', 'Under', -106, { line: 228.5 }),
    nba('draftkings', 'dk-100', 'player_prop', 'Over', -115, { line: 25.5, participant: 'LeBron James', statCategory: 'points' }),
    nba('draftkings', 'dk-100', 'player_prop', 'Under', -105, { line: 25.5, participant: 'LeBron James', statCategory: 'points' }),
    ...nfl('draftkings', 'dk-200', -150, 130),
    ...nfl('fanduel', 'fd-200', -145, 125),
    ...nfl('pinnacle', 'p-200', -140, 128),
    epl('draftkings', 'dk-300', 'Arsenal', 150),
    epl('draftkings', 'dk-300', 'Chelsea', 180),
    epl('draftkings', 'dk-300', 'Draw', 220),
    epl('pinnacle', 'p-300', 'Arsenal', 155),
    epl('pinnacle', 'p-300', 'Chelsea', 185),
    epl('pinnacle', 'p-300', 'Draw', 225),
  ];
}

export const FIXTURE_ROWS = 34;

export interface Conformance {
  sys: TestSystem;
  clock: ManualClock;
  feed: ScriptedFeed;
  /** The fixture's raw ticks, as first sent. */
  ticks: RawTick[];
  /** Sends ticks (or splits) through the pipeline (stamped now on the data clock) and waits until served. */
  push(records: readonly FeedRecord[]): Promise<void>;
  /** One key per tier; tests that spend a rate limit mint their own with `newKey`. */
  keys: Record<TierName, string>;
  newKey(tier: TierName, requestsPerMinute?: number): string;
  /** Moves the data clock on (and lets the delayed board catch up). */
  advance(ms: number): void;
}

/**
 * The running system on the fixture board, on a manual data clock started at wall time and
 * already moved past the free tier's delay, so every tier sees the whole board.
 */
export async function startConformance(
  env: Record<string, string> = {},
  overrides: Omit<SystemOverrides, 'feed' | 'clock'> = {},
): Promise<Conformance> {
  const clock = new ManualClock(Date.now());
  const ticks = fixtureTicks(clock.now());
  const feed = new ScriptedFeed(ticks);
  const sys = await startTestSystem(env, { ...overrides, feed: () => feed, clock });
  await sys.drained();
  const newKey = (tier: TierName, requestsPerMinute?: number): string => {
    const key = `${tier}_test_${randomBytes(12).toString('base64url')}`;
    sys.keys.add(key, tier, requestsPerMinute === undefined ? {} : { requestsPerMinute });
    return key;
  };
  const advance = (ms: number): void => {
    clock.advance(ms);
    sys.views.sync();
  };
  advance(61_000);
  const keys = {
    free: newKey('free', 100_000),
    hobby: newKey('hobby', 100_000),
    pro: newKey('pro', 100_000),
    sharp: newKey('sharp', 100_000),
    enterprise: newKey('enterprise', 100_000),
  };
  const push = async (batch: readonly FeedRecord[]): Promise<void> => {
    clock.advance(1);
    await feed.push(batch.map((t) => ({ ...t, ts: clock.now() })));
    await sys.drained();
  };
  return { sys, clock, feed, ticks, push, keys, newKey, advance };
}

/**
 * The conformance system for a test file: started before its tests, closed after them. `use`
 * receives it once it is up (and may look up what the tests share).
 */
export function conformanceForFile(
  use: (c: Conformance) => void | Promise<void>,
  env: Record<string, string> = {},
  overrides: Omit<SystemOverrides, 'feed' | 'clock'> = {},
): void {
  let running: Conformance | undefined;
  beforeAll(async () => {
    running = await startConformance(env, overrides);
    await use(running);
  });
  afterAll(async () => {
    await running?.sys.close();
  });
}

/** The id of the fixture's event in `league` (as /events lists it). */
export async function fixtureEventId(c: Conformance, league: string): Promise<string> {
  const events = (await c.sys.get(`/api/v1/events?league=${league}`, c.keys.sharp)).body['data'] as Record<string, unknown>[];
  const id = events[0]?.['id'];
  if (typeof id !== 'string') throw new Error(`the fixture has no ${league} event`);
  return id;
}
