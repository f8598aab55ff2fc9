import { describe, expect, it } from 'vitest';
import { LEAGUES, TEAMS, TOPICS } from '../../schemas/index.js';
import type { RawGameState } from '../../schemas/index.js';
import { batchOf, partitionsOf, stageHarness } from '../../test/support/stage-context.js';
import { rawTick } from '../../test/support/raw-tick.js';
import type { BusRecord } from '../bus/index.js';
import { Normalizer } from '../normalize/index.js';
import { gameStateNormalizerStage } from './gamestate-normalizer.js';
import { LeagueOwnership } from './league-ownership.js';

const T0 = Date.UTC(2026, 10, 22, 12);

const raw: RawGameState = {
  kind: 'gamestate',
  book: 'pinnacle',
  bookEventId: 'p-1',
  sport: 'basketball',
  league: 'nba',
  homeTeam: 'Los Angeles Lakers',
  awayTeam: 'Boston Celtics',
  ts: T0,
  status: 'live',
  homeScore: 2,
  awayScore: 0,
  period: 'Q1',
  clock: '11:40',
  possession: 'away',
  server: null,
  lastPlay: null,
  extras: {},
};

describe('the game-state normalizer stage', () => {
  it("sends the event's new status, then the state keyed by event id", async () => {
    const { ctx, sent } = stageHarness(T0);
    const normalizer = new Normalizer({ teams: TEAMS, leagues: LEAGUES });
    normalizer.handle(rawTick(T0), T0);
    const twin = new Normalizer({ teams: TEAMS, leagues: LEAGUES });
    twin.handle(rawTick(T0), T0);
    const expected = twin.handleGameState(raw, T0);
    expect(expected.state).not.toBeNull();

    const spec = gameStateNormalizerStage(ctx, { normalizer, leagues: new LeagueOwnership() });
    const batch = batchOf(TOPICS.rawGameState, 0, [raw], (r) => r.bookEventId);
    await spec.handle([...batch.records, { ...(batch.records[0] as BusRecord<typeof TOPICS.rawGameState>), value: null }], batch);
    expect(sent).toEqual([
      ...(expected.events.length > 0 ? [{ topic: TOPICS.events, records: expected.events.map((e) => ({ key: e.id, value: e })) }] : []),
      { topic: TOPICS.gameState, records: [{ key: expected.state?.eventId, value: expected.state }] },
    ]);
  });

  it('records the leagues of its partitions at an assignment, and forgets their events when it loses them', async () => {
    const { ctx } = stageHarness(T0);
    const normalizer = new Normalizer({ teams: TEAMS, leagues: LEAGUES });
    normalizer.handle(rawTick(T0), T0);
    const leagues = new LeagueOwnership();
    const spec = gameStateNormalizerStage(ctx, { normalizer, leagues });
    const all = partitionsOf(TOPICS.rawGameState);
    await spec.state?.assign?.(all);
    expect(leagues.normalizes('nba')).toBe(true);
    spec.state?.revoke?.(all);
    expect(leagues.normalizes('nba')).toBe(false);
    expect(normalizer.eventCount).toBe(0);
  });
});
