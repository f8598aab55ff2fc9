import { describe, expect, it } from 'vitest';
import { StreamDecoder } from './decoder.js';
import { bestBack, bestLay } from './market-cache.js';
import type { MarketBook, RunnerBook } from './market-cache.js';

const M = '1.100';
const definition = {
  status: 'OPEN',
  inPlay: false,
  eventId: '31',
  eventTypeId: '4',
  marketType: 'MATCH_ODDS',
  marketTime: '2022-07-11T11:00:00.000Z',
  marketBaseRate: 5,
  runners: [
    { id: 11, status: 'ACTIVE', sortPriority: 1 },
    { id: 22, status: 'ACTIVE', sortPriority: 2 },
  ],
};

const line = (message: Record<string, unknown>): string => JSON.stringify({ op: 'mcm', pt: 1000, ...message });

function runnerOf(d: StreamDecoder, runner: number): RunnerBook {
  const r = d.market(M)?.runners.get(String(runner));
  if (r === undefined) throw new Error(`no runner ${runner}`);
  return r;
}

function ladders(market: MarketBook | undefined, runner: number): Record<string, unknown> {
  const r = market?.runners.get(String(runner));
  return {
    atb: [...(r?.atb ?? [])].sort((a, b) => b[0] - a[0]),
    atl: [...(r?.atl ?? [])].sort((a, b) => a[0] - b[0]),
    trd: [...(r?.trd ?? [])].sort((a, b) => a[0] - b[0]),
    ltp: r?.ltp ?? null,
    tv: r?.tv ?? null,
  };
}

function imaged(): StreamDecoder {
  const d = new StreamDecoder();
  d.receive(
    line({
      clk: 'c1',
      initialClk: 'i1',
      ct: 'SUB_IMAGE',
      mc: [
        {
          id: M,
          img: true,
          marketDefinition: definition,
          rc: [
            {
              id: 11,
              atb: [
                [2.0, 10],
                [1.98, 30],
              ],
              atl: [[2.02, 5]],
            },
            {
              id: 22,
              atb: [[1.96, 8]],
              atl: [
                [2.04, 12],
                [2.06, 1],
              ],
            },
          ],
        },
      ],
    }),
  );
  return d;
}

describe('StreamDecoder', () => {
  it('builds the ladders of a full image', () => {
    const d = imaged();
    expect(ladders(d.market(M), 11)).toEqual({
      atb: [
        [2.0, 10],
        [1.98, 30],
      ],
      atl: [[2.02, 5]],
      trd: [],
      ltp: null,
      tv: null,
    });
    expect(d.market(M)?.definition?.marketBaseRate).toBe(5);
    expect(d.resumeClocks).toEqual({ initialClk: 'i1', clk: 'c1' });
  });

  it('applies a delta: a new size replaces the price level, size 0 removes it, trades and last traded price add up', () => {
    const d = imaged();
    const out = d.receive(
      line({
        clk: 'c2',
        pt: 2000,
        mc: [
          {
            id: M,
            rc: [
              {
                id: 11,
                atb: [
                  [2.0, 0],
                  [1.99, 4],
                ],
                atl: [[2.02, 7]],
                trd: [[2.0, 10]],
                ltp: 2.0,
                tv: 10,
              },
            ],
          },
        ],
      }),
    );
    expect(out).toEqual({ kind: 'changes', marketIds: [M], publishTime: 2000, changeType: null, conflated: false });
    expect(ladders(d.market(M), 11)).toEqual({
      atb: [
        [1.99, 4],
        [1.98, 30],
      ],
      atl: [[2.02, 7]],
      trd: [[2.0, 10]],
      ltp: 2.0,
      tv: 10,
    });
    expect(bestBack(runnerOf(d, 11))).toEqual({ price: 1.99, size: 4 });
    expect(bestLay(runnerOf(d, 22))).toEqual({ price: 2.04, size: 12 });
    expect(d.resumeClocks).toEqual({ initialClk: 'i1', clk: 'c2' });
  });

  it('reads level ladders (best offers by depth) before price ladders', () => {
    const d = imaged();
    d.receive(
      line({
        mc: [
          {
            id: M,
            rc: [
              {
                id: 22,
                batb: [
                  [0, 1.97, 3],
                  [1, 1.96, 8],
                ],
                batl: [[0, 2.03, 2]],
              },
            ],
          },
        ],
      }),
    );
    const runner = runnerOf(d, 22);
    expect(bestBack(runner)).toEqual({ price: 1.97, size: 3 });
    expect(bestLay(runner)).toEqual({ price: 2.03, size: 2 });
    d.receive(line({ mc: [{ id: M, rc: [{ id: 22, batb: [[0, 1.97, 0]] }] }] }));
    expect([...runner.batb]).toEqual([[1, [1.96, 8]]]);
  });

  it('replaces the whole market on a new image', () => {
    const d = imaged();
    d.receive(line({ mc: [{ id: M, img: true, marketDefinition: definition, rc: [{ id: 22, atb: [[3.0, 1]] }] }] }));
    expect(d.market(M)?.runners.has('11')).toBe(false);
    expect(ladders(d.market(M), 22)['atb']).toEqual([[3.0, 1]]);
  });

  it('applies a segmented change only at SEG_END, with its clock', () => {
    const d = imaged();
    expect(d.receive(line({ segmentType: 'SEG_START', mc: [{ id: M, rc: [{ id: 11, atb: [[2.5, 1]] }] }] }))).toEqual({ kind: 'segment' });
    expect(d.receive(line({ segmentType: 'SEG', mc: [{ id: M, rc: [{ id: 22, atb: [[1.5, 1]] }] }] }))).toEqual({ kind: 'segment' });
    expect(ladders(d.market(M), 11)['atb']).toEqual([
      [2.0, 10],
      [1.98, 30],
    ]);
    expect(
      d.receive(line({ segmentType: 'SEG_END', clk: 'c9', mc: [{ id: '1.200', img: true, marketDefinition: definition }] })),
    ).toMatchObject({
      kind: 'changes',
      marketIds: [M, '1.200'],
    });
    expect(ladders(d.market(M), 11)['atb']).toEqual([
      [2.5, 1],
      [2.0, 10],
      [1.98, 30],
    ]);
    expect(d.resumeClocks.clk).toBe('c9');
  });

  it('drops a segment cut by a lost connection, keeping the clock of the last whole change', () => {
    const d = imaged();
    d.receive(line({ segmentType: 'SEG_START', clk: 'half', mc: [{ id: M, rc: [{ id: 11, atb: [[2.5, 1]] }] }] }));
    d.connectionLost();
    expect(d.resumeClocks).toEqual({ initialClk: 'i1', clk: 'c1' });
    expect(d.receive(line({ segmentType: 'SEG_END', mc: [] }))).toEqual({
      kind: 'invalid',
      reason: 'SEG_END without SEG_START',
      marketId: null,
    });
    expect(ladders(d.market(M), 11)['atb']).toEqual([
      [2.0, 10],
      [1.98, 30],
    ]);
  });

  it('reports the conflation flag and moves the clock on a heartbeat', () => {
    const d = imaged();
    expect(d.receive(line({ mc: [{ id: M, con: true, rc: [{ id: 11, ltp: 2.0 }] }] }))).toMatchObject({ kind: 'changes', conflated: true });
    expect(d.receive(line({ ct: 'HEARTBEAT', clk: 'c5', pt: 5000 }))).toEqual({ kind: 'heartbeat', publishTime: 5000 });
    expect(d.resumeClocks.clk).toBe('c5');
  });

  it('names what is wrong with a bad message and leaves the markets as they were', () => {
    const d = imaged();
    const before = ladders(d.market(M), 11);
    expect(d.receive('{"op":"mcm","pt":1,"mc":[{"id":"1.1')).toEqual({ kind: 'invalid', reason: 'not JSON', marketId: null });
    expect(d.receive('[1]')).toEqual({ kind: 'invalid', reason: 'not a JSON object', marketId: null });
    expect(d.receive('{"pt":1}')).toEqual({ kind: 'invalid', reason: 'op is missing', marketId: null });
    expect(d.receive(line({ pt: 'x', mc: [] }))).toEqual({ kind: 'invalid', reason: 'pt is not a number', marketId: null });
    expect(
      d.receive(
        line({
          mc: [
            {
              id: M,
              rc: [
                { id: 11, atb: [[2.2, 1]] },
                { id: 22, atb: [[1.5]] },
              ],
            },
          ],
        }),
      ),
    ).toEqual({
      kind: 'invalid',
      reason: 'mc[0].rc[1].atb[0] is not 2 numbers',
      marketId: M,
    });
    expect(d.receive(line({ mc: [{ id: M, marketDefinition: { status: 'OPEN' } }] }))).toMatchObject({
      reason: 'mc[0].marketDefinition.runners is not an array',
    });
    expect(ladders(d.market(M), 11)).toEqual(before);
  });

  it('reads status answers and the connection greeting, and ignores other streams', () => {
    const d = new StreamDecoder();
    expect(d.receive('{"op":"connection","connectionId":"002-1"}')).toEqual({ kind: 'connection', connectionId: '002-1' });
    expect(
      d.receive(
        '{"op":"status","id":1,"statusCode":"FAILURE","errorCode":"INVALID_SESSION_INFORMATION","errorMessage":"bad","connectionClosed":true}',
      ),
    ).toEqual({
      kind: 'status',
      status: { id: 1, statusCode: 'FAILURE', errorCode: 'INVALID_SESSION_INFORMATION', errorMessage: 'bad', connectionClosed: true },
    });
    expect(d.receive('{"op":"ocm","pt":1}')).toEqual({ kind: 'ignored', op: 'ocm' });
  });
});
