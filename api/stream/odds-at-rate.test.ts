/**
 * The odds channel prices exchange rows at each group's commission rate, and serializes a changed
 * row once per rate (and deep-link state) in use, not once per group: groups on the board's rate
 * share one serialization, as do groups on any one other rate, and a sportsbook row, which no rate
 * changes, is serialized once for all of them.
 */
import { describe, expect, it } from 'vitest';
import type { CanonicalEvent, OddsRow } from '../../schemas/index.js';
import { oddsRowKey } from '../../schemas/index.js';
import { presentOdds } from '../contract/index.js';
import { parseOddsFilters } from '../queries/index.js';
import { Catalog, LiveBoard } from '../views/index.js';
import { fixtureEvent } from '../../test/support/stream-app.js';
import { Group } from './hub.js';
import type { StreamSpec } from './hub.js';
import { ODDS_CHANNEL, OddsSource } from './odds-source.js';

const catalog = new Catalog();
const event = fixtureEvent('nba-1');

function row(book: string, priceAmerican: number, back?: number): OddsRow {
  const ident = {
    eventId: event.id,
    book,
    market: 'moneyline' as const,
    selection: 'home' as const,
    line: null,
    participant: null,
    statCategory: null,
  };
  return {
    ...ident,
    id: `${book}-home`,
    priceAmerican,
    priceDecimal: 1 + priceAmerican / 100,
    probability: 100 / (priceAmerican + 100),
    ts: 0,
    oddsChangedAt: 0,
    observedAt: 0,
    isLive: false,
    bookEventId: `${book}-1`,
    selectionId: null,
    isActive: true,
    suspendedSince: null,
    ...(back === undefined ? {} : { exchange: { back, backSize: 100, lay: back + 0.02, laySize: 100, volume: 1000, commission: 5 } }),
  };
}

function setUp(): { source: OddsSource; board: LiveBoard; presented: string[] } {
  const board = new LiveBoard();
  board.applyEvent(event);
  const presented: string[] = [];
  const present = (r: OddsRow, e: CanonicalEvent) => {
    presented.push(`${r.book}@${r.exchange?.commission ?? '-'}`);
    return presentOdds(catalog, r, e);
  };
  return { source: new OddsSource('live', board, catalog, present, () => undefined), board, presented };
}

function group(source: OddsSource, signature: string, commission?: number): Group {
  const spec: StreamSpec = {
    feed: 'live',
    tier: 'enterprise',
    channels: new Map([[ODDS_CHANNEL, parseOddsFilters({}, catalog, 'enterprise')]]),
    signature,
    ...(commission === undefined ? {} : { commission }),
  };
  const g = new Group(spec);
  source.openGroup(g);
  return g;
}

function put(board: LiveBoard, r: OddsRow): void {
  const key = oddsRowKey(r);
  board.applyChange({ key, eventId: r.eventId, row: r, changedAt: 0 });
}

/** The rows of a group's `odds:update` frames: [book, odds_american, commission]. */
function updates(source: OddsSource, g: Group, batches: ReturnType<OddsSource['take']>): unknown[][] {
  return batches
    .flatMap((b) => source.render(b, g))
    .filter((f) => f.payload.name === 'odds:update')
    .flatMap((f) => (JSON.parse(f.payload.sse) as { odds: Record<string, unknown>[] }).odds)
    .map((o) => [o['sportsbook'], o['odds_american'], o['commission']]);
}

describe('odds rows at a group’s commission rate', () => {
  it('prices an exchange row at each group’s rate, serializing it once per rate for every group on it', () => {
    const { source, board, presented } = setUp();
    const atBoard = [group(source, 'a'), group(source, 'b')];
    const atTwo = [group(source, 'c', 2), group(source, 'd', 2)];
    // Back 2.3 pays +124 at the board's 5 % and +127 at 2 %.
    put(board, row('betfair_ex_eu', 124, 2.3));
    put(board, row('caesars', 150));
    const batches = source.take();
    const caesars = ['caesars', 150, undefined];
    expect(atBoard.map((g) => updates(source, g, batches))).toEqual([
      [['betfair_ex_eu', 124, 5], caesars],
      [['betfair_ex_eu', 124, 5], caesars],
    ]);
    expect(atTwo.map((g) => updates(source, g, batches))).toEqual([
      [['betfair_ex_eu', 127, 2], caesars],
      [['betfair_ex_eu', 127, 2], caesars],
    ]);
    expect(presented.sort()).toEqual(['betfair_ex_eu@2', 'betfair_ex_eu@5', 'caesars@-']);
  });

  it('starts a group on another rate from its rows at that rate', () => {
    const { source, board } = setUp();
    put(board, row('betfair_ex_eu', 124, 2.3));
    const snapshot = (g: Group) => source.snapshot(g).map((r) => (JSON.parse(r.json) as Record<string, unknown>)['odds_american']);
    expect([snapshot(group(source, 'a')), snapshot(group(source, 'b', 2))]).toEqual([[124], [127]]);
  });
});
