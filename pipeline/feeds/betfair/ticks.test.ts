import { describe, expect, it } from 'vitest';
import { readCatalogue, catalogueOf } from './catalogue.js';
import { StreamDecoder } from './decoder.js';
import { ExchangeTickMapper, teamsOfEventName, ticksOfChange } from './ticks.js';

const M = '1.100';
const catalogue = catalogueOf(
  readCatalogue([
    {
      marketId: M,
      marketName: 'Match Odds',
      marketStartTime: '2022-07-11T11:00:00.000Z',
      description: { marketType: 'MATCH_ODDS' },
      runners: [
        { selectionId: 11, runnerName: 'Netherlands', handicap: 0, sortPriority: 1 },
        { selectionId: 22, runnerName: 'Papua New Guinea', handicap: 0, sortPriority: 2 },
      ],
      eventType: { id: '4', name: 'Cricket' },
      event: { id: '31', name: 'Netherlands v Papua New Guinea' },
    },
  ]),
);

const definition = (status: string, runner22 = 'ACTIVE', inPlay = false): Record<string, unknown> => ({
  status,
  inPlay,
  marketBaseRate: 5,
  eventTypeId: '4',
  runners: [
    { id: 11, status: 'ACTIVE' },
    // A non-runner comes with the adjustment factor that reprices bets already matched on the others.
    { id: 22, status: runner22, ...(runner22 === 'REMOVED' ? { adjustmentFactor: 37.5 } : {}) },
  ],
});

function feed(commissionPercent: number | null = 0): { decoder: StreamDecoder; send: (message: Record<string, unknown>) => string[] } {
  const decoder = new StreamDecoder();
  // Commission 0 unless a test is about it: the prices below are then the ladder's own.
  const mapper = new ExchangeTickMapper('betfair_ex_eu', { commissionPercent });
  return {
    decoder,
    send: (message) => {
      const out = decoder.receive(JSON.stringify({ op: 'mcm', pt: 1_657_000_000_000, ...message }));
      if (out.kind !== 'changes') return [];
      return ticksOfChange(decoder, mapper, (id) => catalogue.get(id), out.marketIds, out.publishTime).ticks.map(
        (t) => `${t.status} ${t.outcome} ${t.priceAmerican ?? '-'}${t.isLive ? ' live' : ''}`,
      );
    },
  };
}

describe('ExchangeTickMapper', () => {
  it('quotes each runner at its best back price net of the market’s commission, with both sides of the ladder, the names and event of the catalogue', () => {
    const decoder = new StreamDecoder();
    const out = decoder.receive(
      JSON.stringify({
        op: 'mcm',
        pt: 5,
        mc: [
          {
            id: M,
            img: true,
            marketDefinition: definition('OPEN'),
            rc: [
              {
                id: 11,
                atb: [
                  [2.5, 3],
                  [2.4, 9],
                ],
                atl: [
                  [2.56, 4],
                  [2.6, 20],
                ],
                trd: [
                  [2.5, 100],
                  [2.52, 50],
                ],
              },
              { id: 22, atb: [[1.6, 7]], tv: 80 },
            ],
          },
        ],
      }),
    );
    if (out.kind !== 'changes') throw new Error(out.kind);
    const { ticks } = ticksOfChange(decoder, new ExchangeTickMapper('betfair_ex_eu'), (id) => catalogue.get(id), out.marketIds, 5);
    expect(ticks[0]).toEqual({
      book: 'betfair_ex_eu',
      bookEventId: '31',
      sport: 'cricket',
      league: 'test_cricket',
      homeTeam: 'Netherlands',
      awayTeam: 'Papua New Guinea',
      startTime: Date.parse('2022-07-11T11:00:00.000Z'),
      isLive: false,
      market: 'moneyline',
      outcome: 'Netherlands',
      line: null,
      participant: null,
      statCategory: null,
      // Back 2.5 less 5 % of the winnings: 1 + 1.5 x 0.95 = 2.425.
      priceAmerican: 143,
      status: 'open',
      ts: 5,
      selectionId: '11',
      exchange: { back: 2.5, backSize: 3, lay: 2.56, laySize: 4, volume: 150, commission: 5 },
    });
    // 1 + 0.6 x 0.95 = 1.57; nothing to lay, the stream's own traded total.
    expect(ticks[1]).toMatchObject({
      outcome: 'Papua New Guinea',
      priceAmerican: -175,
      exchange: { back: 1.6, backSize: 7, lay: null, laySize: null, volume: 80, commission: 5 },
    });
  });

  it('sends a tick only when a runner’s best prices, the sizes at them, its volume or its status move', () => {
    const f = feed();
    expect(
      f.send({
        mc: [
          {
            id: M,
            img: true,
            marketDefinition: definition('OPEN'),
            rc: [
              { id: 11, atb: [[2.5, 3]] },
              { id: 22, atb: [[1.6, 7]] },
            ],
          },
        ],
      }),
    ).toEqual(['open Netherlands 150', 'open Papua New Guinea -167']);
    expect(f.send({ mc: [{ id: M, rc: [{ id: 11, atb: [[2.4, 50]] }] }] })).toEqual([]);
    expect(f.send({ mc: [{ id: M, rc: [{ id: 11, atb: [[2.5, 50]], atl: [[2.6, 1]] }] }] })).toEqual(['open Netherlands 150']);
    expect(f.send({ mc: [{ id: M, rc: [{ id: 11, atb: [[2.5, 0]], trd: [[2.5, 3]] }] }] })).toEqual(['open Netherlands 140']);
    expect(f.send({ mc: [{ id: M, rc: [{ id: 11, atb: [[2.4, 0]] }] }] })).toEqual(['suspended Netherlands -']);
  });

  it('locks prices while the market is suspended, moves to live in play, pulls a removed runner (the others stay quoted from their own ladders) and everything at close', () => {
    const f = feed();
    f.send({
      mc: [
        {
          id: M,
          img: true,
          marketDefinition: definition('OPEN'),
          rc: [
            { id: 11, atb: [[2.5, 3]] },
            { id: 22, atb: [[1.6, 7]] },
          ],
        },
      ],
    });
    expect(f.send({ mc: [{ id: M, marketDefinition: definition('SUSPENDED') }] })).toEqual([
      'suspended Netherlands 150',
      'suspended Papua New Guinea -167',
    ]);
    expect(f.send({ mc: [{ id: M, marketDefinition: definition('OPEN', 'ACTIVE', true) }] })).toEqual([
      'open Netherlands 150 live',
      'open Papua New Guinea -167 live',
    ]);
    expect(f.send({ mc: [{ id: M, marketDefinition: definition('OPEN', 'REMOVED', true) }] })).toEqual([
      'suspended Papua New Guinea - live',
    ]);
    expect(f.send({ mc: [{ id: M, marketDefinition: definition('CLOSED', 'REMOVED', true) }] })).toEqual(['suspended Netherlands - live']);
    expect(f.decoder.market(M)).toBeUndefined();
  });

  it('charges the account’s commission when one is set, else the market’s base rate, else the standard 5 %', () => {
    const image = (def: Record<string, unknown>): Record<string, unknown> => ({
      mc: [{ id: M, img: true, marketDefinition: def, rc: [{ id: 11, atb: [[3, 10]] }] }],
    });
    const { marketBaseRate: _rate, ...noRate } = definition('OPEN');
    // Back 3.0: at 3 % 1 + 2 x 0.97 = 2.94; at 2 %, 2.96; at 5 %, 2.9.
    expect(feed(3).send(image(definition('OPEN')))[0]).toBe('open Netherlands 194');
    expect(feed(null).send(image({ ...noRate, marketBaseRate: 2 }))[0]).toBe('open Netherlands 196');
    expect(feed(null).send(image(noRate))[0]).toBe('open Netherlands 190');
  });

  it('skips a market it cannot name', () => {
    const decoder = new StreamDecoder();
    decoder.receive(JSON.stringify({ op: 'mcm', pt: 1, mc: [{ id: '1.999', img: true, marketDefinition: definition('OPEN') }] }));
    expect(ticksOfChange(decoder, new ExchangeTickMapper('b'), (id) => catalogue.get(id), ['1.999'], 1)).toEqual({
      ticks: [],
      skipped: ['no_catalogue'],
    });
  });

  it('reads home and away from the event name', () => {
    expect(teamsOfEventName('Netherlands v Papua New Guinea')).toEqual({ homeTeam: 'Netherlands', awayTeam: 'Papua New Guinea' });
    expect(teamsOfEventName('Boston Celtics @ Miami Heat')).toEqual({ homeTeam: 'Miami Heat', awayTeam: 'Boston Celtics' });
    expect(teamsOfEventName('Daily Goals')).toBeNull();
  });
});
