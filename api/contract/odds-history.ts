import { SELECTION_TYPES } from '../../schemas/index.js';
import type { OddsTick, SelectionType } from '../../schemas/index.js';
import { roundedDecimalOdds, roundedImpliedProbability } from '../../pipeline/odds-math/index.js';
import { isoTime, nullableNumber, nullableString } from './common.js';
import type { RowOf } from './route-types.js';

/** `selection` and `status` are what the sink wrote from a typed tick (pipeline/sinks/rows.ts `tickRow`). */
export interface OddsHistoryRecord {
  t: number | string;
  sportsbook: string;
  market: string;
  selection: SelectionType;
  line: number | null;
  participant: string | null;
  stat_category: string | null;
  odds_american: number | null;
  odds_decimal: number | null;
  status: OddsTick['status'];
  is_live: boolean | number;
  [key: string]: unknown;
}

/** One point of `GET /events/{id}/history`: a price a book set or confirmed, or a suspension. */
export const historyPointSchema = {
  type: 'object',
  required: [
    'timestamp',
    'sportsbook',
    'market',
    'selection',
    'line',
    'participant',
    'stat_category',
    'odds_american',
    'odds_decimal',
    'probability',
    'status',
    'is_live',
  ],
  properties: {
    timestamp: {
      type: 'string',
      format: 'date-time',
      description: 'When the book set or confirmed the price (or suspended or pulled the line).',
    },
    sportsbook: { type: 'string' },
    market: { type: 'string', description: 'Market id (moneyline, point_spread, total, ...).' },
    selection: { type: 'string', enum: [...SELECTION_TYPES], description: 'The canonical side (the `selection_type` of /odds rows).' },
    line: nullableNumber,
    participant: nullableString,
    stat_category: nullableString,
    odds_american: {
      type: ['integer', 'null'],
      description: 'With status suspended: the price the book froze (the line was locked), or null (the line was pulled).',
    },
    odds_decimal: nullableNumber,
    probability: { ...nullableNumber, description: 'Implied probability, vig included.' },
    status: { type: 'string', enum: ['open', 'suspended'] },
    is_live: { type: 'boolean' },
  },
} as const;

export function presentHistoryPoint(r: OddsHistoryRecord): RowOf<'/api/v1/events/{eventId}/history'> {
  return {
    timestamp: isoTime(Number(r.t)),
    sportsbook: r.sportsbook,
    market: r.market,
    selection: r.selection,
    line: r.line === null ? null : Number(r.line),
    participant: r.participant,
    stat_category: r.stat_category,
    // Rounded as the board's rows are (4 and 6 places), so a chart's last point equals /odds.
    odds_american: r.odds_american === null ? null : Number(r.odds_american),
    odds_decimal: r.odds_american === null ? null : roundedDecimalOdds(Number(r.odds_american)),
    probability: r.odds_american === null ? null : roundedImpliedProbability(Number(r.odds_american)),
    status: r.status,
    is_live: r.is_live === true || r.is_live === 1,
  };
}
