import { describe, expect, it } from 'vitest';
import { evRowSchema } from '../../api/contract/opportunities.js';
import { oddsRowSchema } from '../../api/contract/odds.js';
import { paginatedEnvelope } from '../../api/contract/common.js';
import { strictSchema, validatorFor } from '../support/strict-schema.js';

// The check the compat suite runs on every body: it must fail on a presenter that emits a field
// its schema does not declare (serialization would drop it silently) or omits a required one.

const row = {
  id: 'r1',
  event_id: 'e1',
  sportsbook: 'draftkings',
  sportsbook_name: 'DraftKings',
  sport: 'basketball',
  league: 'nba',
  home_team: 'A',
  away_team: 'B',
  market: 'moneyline',
  market_type: 'moneyline',
  selection: 'A',
  selection_type: 'home',
  line: null,
  odds_american: -110,
  odds_decimal: 1.9091,
  probability: 0.5238,
  odds_probability: 0.5238,
  timestamp: '2026-01-01T00:00:00.000Z',
  odds_changed_at: '2026-01-01T00:00:00.000Z',
  observed_at: '2026-01-01T00:00:00.000Z',
  event_start_time: '2026-01-01T01:00:00.000Z',
  is_live: false,
  is_active: true,
  suspended_since: null,
  is_main_line: true,
  is_alternate_line: false,
};
const envelope = paginatedEnvelope(oddsRowSchema);
const body = (data: object[]): object => ({
  success: true,
  data,
  pagination: { limit: 1, offset: 0, has_more: false, next_offset: null },
  updated_at: '2026-01-01T00:00:00.000Z',
});

describe('strict response-schema check', () => {
  it('accepts a row with exactly the declared fields', () => {
    expect(validatorFor(envelope)(body([row]))).toBe(true);
  });

  it('rejects a field the schema does not declare, at any depth', () => {
    const validate = validatorFor(envelope);
    expect(validate(body([{ ...row, shiny_new_field: 1 }]))).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ instancePath: '/data/0', params: { additionalProperty: 'shiny_new_field' } });
    expect(validatorFor(envelope)(body([{ ...row, home: { id: 'a', name: 'A', logo: 'x' } }]))).toBe(false);
    expect(validatorFor(envelope)({ ...body([row]), extra_top_level: true })).toBe(false);
  });

  it('rejects a missing required field or a wrong type', () => {
    const { market_type: _dropped, ...withoutMarketType } = row;
    expect(validatorFor(envelope)(body([withoutMarketType]))).toBe(false);
    expect(validatorFor(envelope)(body([{ ...row, odds_american: '-110' }]))).toBe(false);
    const { updated_at: _u, ...noStamp } = body([row]) as Record<string, unknown>;
    expect(validatorFor(envelope)(noStamp)).toBe(false);
  });

  it('leaves explicit open maps open (additionalProperties given) and closes everything else', () => {
    const strict = strictSchema(evRowSchema) as {
      additionalProperties: unknown;
      properties: Record<string, { additionalProperties?: unknown }>;
    };
    expect(strict.additionalProperties).toBe(false);
    expect(strict.properties['methods']?.additionalProperties).toBe(false);
    expect(strictSchema({ type: 'object', additionalProperties: { type: 'integer' } })).toEqual({
      type: 'object',
      additionalProperties: { type: 'integer' },
    });
  });
});
