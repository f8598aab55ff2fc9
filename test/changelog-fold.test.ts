/**
 * The third reader of `make chaos` and of the reload test: a replica's `/odds` against a fold of
 * `odds.snapshot`. It must name the side that is wrong, with the key and its last offset.
 */
import { describe, expect, it } from 'vitest';
import type { OddsRow } from '../schemas/index.js';
import { rowId } from '../pipeline/snapshot/index.js';
import { compareWithFold, deletedHeads, foldDiffLine, servedPrices } from './support/changelog-fold.js';
import type { LastRecord } from './support/changelog-fold.js';

const row = (key: string, priceAmerican: number, ts: number): OddsRow => ({ id: rowId(key), priceAmerican, ts }) as OddsRow;
const last = (key: string, partition: number, offset: number, r: OddsRow | null): [string, LastRecord] => [
  rowId(key),
  { key, partition, offset, row: r },
];
const served = (
  key: string,
  oddsAmerican: number,
  ts: number,
  place = key,
): [string, { oddsAmerican: number; timestamp: number; place: string }] => [rowId(key), { oddsAmerican, timestamp: ts, place }];

describe('a served board against the fold of the changelog', () => {
  const fold = {
    rows: new Map([
      last('e|moneyline|||home||dk', 2, 40, row('e|moneyline|||home||dk', -110, 5)),
      last('e|moneyline|||away||dk', 2, 41, row('e|moneyline|||away||dk', 100, 5)),
      last('e|moneyline|||home||fd', 2, 42, null),
    ]),
    starts: new Map([[2, 30]]),
  };

  it('matches when the board holds every row of the fold at its price and time, and nothing else', () => {
    const board = new Map([served('e|moneyline|||home||dk', -110, 5), served('e|moneyline|||away||dk', 100, 5)]);
    expect(foldDiffLine(compareWithFold(board, fold))).toBe('matches the changelog');
  });

  it('names a row the board lacks, one it serves after its removal, one the log never had and one at an older price, each with its last record', () => {
    const board = new Map([
      served('e|moneyline|||away||dk', 105, 4),
      served('e|moneyline|||home||fd', -120, 3),
      served('x|moneyline|||home||dk', 130, 9, 'x|moneyline||home||dk'),
    ]);
    const diff = compareWithFold(board, fold);
    expect(diff).toEqual({
      missing: 1,
      extra: 2,
      differing: 1,
      deleted: 0,
      examples: [
        'missing e|moneyline|||home||dk (last record p2@40: -110 at 5), not served',
        'differing e|moneyline|||away||dk (last record p2@41: 100 at 5), served 105 at 4',
        'extra e|moneyline|||home||fd (last record p2@42: a removal), served at -120',
        `extra x|moneyline||home||dk (id ${rowId('x|moneyline|||home||dk')}: not in the changelog), served at 130`,
      ],
    });
    expect(foldDiffLine(diff)).toMatch(/^lacks 1, serves 2 it should not, 1 differ: missing e\|moneyline/);
  });

  it('tells a row whose last record the cluster deleted (the follower saw it below where the log now starts) from one never written', () => {
    const history = new Map([last('e|total_points|||over|210.5|dk', 2, 12, row('e|total_points|||over|210.5|dk', -105, 2))]);
    const board = new Map([
      served('e|moneyline|||home||dk', -110, 5),
      served('e|moneyline|||away||dk', 100, 5),
      served('e|total_points|||over|210.5|dk', -105, 2),
    ]);
    const diff = compareWithFold(board, fold, history);
    expect(diff).toEqual({
      missing: 0,
      extra: 1,
      differing: 0,
      deleted: 1,
      examples: ['deleted e|total_points|||over|210.5|dk (last record p2@12, deleted: the log now starts @30), served at -105'],
    });
    expect(foldDiffLine(diff)).toBe(
      'lacks 0, serves 1 it should not (1 of them with their last record deleted by the cluster), 0 differ: deleted e|total_points|||over|210.5|dk (last record p2@12, deleted: the log now starts @30), served at -105',
    );
    expect(deletedHeads(fold)).toBe('p2@30');
  });

  it("reads a served row's price, time and place from /odds's comparable text", () => {
    const text = JSON.stringify({
      event_id: 'e',
      market: 'moneyline',
      participant: null,
      selection: 'home',
      line: null,
      sportsbook: 'dk',
      odds_american: -110,
      timestamp: '1970-01-01T00:00:00.005Z',
    });
    expect(servedPrices(new Map([['id1', text]]))).toEqual(
      new Map([['id1', { oddsAmerican: -110, timestamp: 5, place: 'e|moneyline||home||dk' }]]),
    );
  });
});
