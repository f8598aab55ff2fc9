import { describe, expect, it } from 'vitest';
import type { CanonicalEvent, OddsRow } from '../../schemas/index.js';
import { LiveBoard } from '../views/board.js';
import { Catalog } from '../views/catalog.js';
import { OpportunityBoard } from '../views/opportunity-board.js';
import { DeepLinkResolver } from './resolver.js';
import { RowIdIndex } from './row-index.js';

const event = {
  id: 'nba-20260513-bos-lal',
  sport: 'basketball',
  league: 'nba',
  homeTeamId: 'lal',
  awayTeamId: 'bos',
  startTime: 0,
  isLive: false,
  externalIds: { fanatics: 'FAN-9' },
} as unknown as CanonicalEvent;
const row = (over: Partial<OddsRow>): OddsRow => ({
  id: 'r1',
  eventId: event.id,
  book: 'fanatics',
  market: 'moneyline',
  selection: 'home',
  line: null,
  participant: null,
  statCategory: null,
  priceAmerican: -110,
  priceDecimal: 1.91,
  probability: 0.52,
  ts: 0,
  oddsChangedAt: 0,
  observedAt: 0,
  isLive: false,
  bookEventId: 'FAN-9',
  selectionId: null,
  isActive: true,
  suspendedSince: null,
  ...over,
});

function resolver(templates: Catalog['deepLinks']): { r: DeepLinkResolver; board: LiveBoard } {
  const board = new LiveBoard();
  board.applyEvent(event);
  const r = new DeepLinkResolver(new Catalog(undefined, templates), board, new RowIdIndex(board), new OpportunityBoard());
  return { r, board };
}

describe('DeepLinkResolver', () => {
  it('uses the market level when the row has no selection id, filling our market id', () => {
    const { r, board } = resolver(
      new Map([
        [
          'fanatics',
          {
            homepage: 'https://f.example',
            event: 'https://f.example/e/{event_id}',
            market: 'https://f.example/e/{event_id}?m={market}',
            selection: 'https://f.example/s/{selection_id}',
          },
        ],
      ]),
    );
    board.applyChange({ key: 'k1', eventId: event.id, row: row({}), changedAt: 1 });
    board.applyChange({ key: 'k2', eventId: event.id, row: row({ id: 'r2', selection: 'away', selectionId: 'S 2' }), changedAt: 1 });
    expect(r.resolve('r1', { state: 'pa' })).toEqual({ url: 'https://f.example/e/FAN-9?m=moneyline', type: 'outcome' });
    expect(r.resolve('r2', { state: 'pa' })).toEqual({ url: 'https://f.example/s/S%202', type: 'outcome' });
  });

  it('sends a state the book does not serve to its homepage', () => {
    const { r, board } = resolver(
      new Map([['fanatics', { homepage: 'https://f.example', event: 'https://{state}.f.example/e/{event_id}', states: ['nj', 'pa'] }]]),
    );
    board.applyChange({ key: 'k1', eventId: event.id, row: row({}), changedAt: 1 });
    expect(r.resolve('r1', { state: 'nj' })).toEqual({ url: 'https://nj.f.example/e/FAN-9', type: 'event' });
    expect(r.resolve('r1', { state: 'tx' })).toEqual({ url: 'https://f.example', type: 'homepage' });
  });

  it('forgets a row once it leaves the board', () => {
    const { r, board } = resolver(new Map([['fanatics', { homepage: 'https://f.example' }]]));
    board.applyChange({ key: 'k1', eventId: event.id, row: row({}), changedAt: 1 });
    expect(r.resolve('r1', { state: 'pa' })?.type).toBe('homepage');
    board.applyChange({ key: 'k1', eventId: event.id, row: null, changedAt: 2 });
    expect(r.resolve('r1', { state: 'pa' })).toBeNull();
  });
});
