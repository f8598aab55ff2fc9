import { ALERT_KINDS } from '../../schemas/index.js';
import type { AlertDeliveryRecord, AlertFilters, AlertRuleRecord } from '../../schemas/index.js';
import { isoTime, nullableString } from './common.js';
import { sharedFilterParams } from './filters.js';

/** Body, response schemas and presenters of the /alerts routes. */

const dateTime = { type: 'string', format: 'date-time' } as const;

/** The filters a rule takes: the opportunity lists' parameters of the same names. */
export const alertFilterProperties = {
  sport: sharedFilterParams.sport,
  league: sharedFilterParams.league,
  sportsbook: {
    type: 'string',
    maxLength: 500,
    description: 'Sportsbook ids, comma-separated; an opportunity matches when every leg is at one of them.',
  },
  market: sharedFilterParams.market,
  live: { type: 'boolean', description: 'Only live (true) or only pre-match (false) events.' },
  min_ev: {
    type: 'number',
    minimum: -100,
    maximum: 1000,
    description: '+EV: lowest EV % (default 2, as the stream); middles: lowest model EV %.',
  },
  min_profit: { type: 'number', minimum: 0, maximum: 100, description: 'Arbitrage: lowest profit % (default 0.5, as the stream).' },
  max_odds_age: {
    type: 'number',
    minimum: 0,
    maximum: 86_400,
    description: 'Seconds; leaves out opportunities whose oldest price is older.',
  },
  min_confidence: { type: 'number', minimum: 0, maximum: 100, description: '+EV: lowest confidence_score (0-100).' },
  key_numbers: {
    type: 'array',
    items: { type: 'number', exclusiveMinimum: 0, maximum: 100, multipleOf: 0.5 },
    minItems: 1,
    maxItems: 20,
    uniqueItems: true,
    description:
      "key_number: absolute spreads that count as key numbers, instead of the league's (NFL and college football: 3, 7, 10, 14).",
  },
  key_totals: {
    type: 'array',
    items: { type: 'number', exclusiveMinimum: 0, maximum: 1000, multipleOf: 0.5 },
    minItems: 1,
    maxItems: 20,
    uniqueItems: true,
    description: "key_number: totals that count as key numbers, instead of the league's (NFL: 41, 44, 47).",
  },
  public_by: {
    type: 'string',
    enum: ['bets', 'handle'],
    description: 'reverse_line_move: the public side is the one with most tickets (bets, default) or most money (handle).',
  },
  min_public_pct: {
    type: 'number',
    minimum: 50,
    maximum: 100,
    description: "reverse_line_move: the public side's lowest share, % (default 55).",
  },
  min_line_move: {
    type: 'number',
    exclusiveMinimum: 0,
    maximum: 50,
    description: 'reverse_line_move: smallest move of a spread or total toward the public side, points (default 0.5).',
  },
  min_probability_move: {
    type: 'number',
    exclusiveMinimum: 0,
    maximum: 50,
    description: "reverse_line_move: smallest drop of the public side's moneyline implied probability, percentage points (default 2).",
  },
} as const;

export const FILTER_NAMES = Object.keys(alertFilterProperties) as (keyof AlertFilters)[];

export const newAlertBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['kind', 'webhook_url'],
  properties: {
    kind: {
      type: 'string',
      enum: [...ALERT_KINDS],
      description:
        'What the rule watches: an opportunity list (ev, arbitrage, middles, low_hold), a sharp main line moving onto, off or across a key number (key_number), or reverse line movement in the betting splits (reverse_line_move).',
    },
    webhook_url: {
      type: 'string',
      minLength: 1,
      maxLength: 2000,
      description: 'Where alerts are posted: https; plain http only on loopback (127.0.0.1, [::1], localhost).',
    },
    name: { type: ['string', 'null'], minLength: 1, maxLength: 100, description: 'A label for the rule.' },
    ...alertFilterProperties,
  },
} as const;

const filtersSchema = {
  type: 'object',
  properties: alertFilterProperties,
  description: 'The filters as given; absent ones filter nothing (or take the default).',
} as const;

export const alertRuleSchema = {
  type: 'object',
  required: ['id', 'name', 'kind', 'filters', 'webhook_url', 'created_at'],
  properties: {
    id: { type: 'string' },
    name: nullableString,
    kind: { type: 'string', enum: [...ALERT_KINDS] },
    filters: filtersSchema,
    webhook_url: { type: 'string' },
    created_at: dateTime,
  },
} as const;

export const newAlertRuleSchema = {
  ...alertRuleSchema,
  required: [...alertRuleSchema.required, 'secret'],
  properties: {
    ...alertRuleSchema.properties,
    secret: { type: 'string', description: 'The HMAC-SHA256 key of the X-Signature header: shown in this response only.' },
  },
} as const;

export const alertDeliverySchema = {
  type: 'object',
  required: ['alert_id', 'sequence', 'outcome', 'attempts', 'last_status', 'last_error', 'raised_at', 'finished_at', 'body'],
  properties: {
    alert_id: { type: 'string', description: 'The idempotency key (Idempotency-Key header, `id` of the body).' },
    sequence: { type: 'integer', description: 'Increasing in the order the rule raised its alerts.' },
    outcome: { type: 'string', enum: ['delivered', 'dead_letter'] },
    attempts: { type: 'integer' },
    last_status: { type: ['integer', 'null'], description: "The last answer's HTTP status; null when none came (timeout, refused)." },
    last_error: nullableString,
    raised_at: dateTime,
    finished_at: dateTime,
    body: { type: 'string', description: 'The JSON body posted (or that would have been).' },
  },
} as const;

export interface PresentedRule {
  id: string;
  name: string | null;
  kind: AlertRuleRecord['kind'];
  filters: AlertFilters;
  webhook_url: string;
  created_at: string;
}

export function presentRule(r: AlertRuleRecord): PresentedRule {
  return {
    id: r.id,
    name: r.name,
    kind: r.kind,
    filters: JSON.parse(r.filtersJson) as AlertFilters,
    webhook_url: r.webhookUrl,
    created_at: isoTime(r.createdAt),
  };
}

export function presentDelivery(d: AlertDeliveryRecord): {
  alert_id: string;
  sequence: number;
  outcome: AlertDeliveryRecord['outcome'];
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  raised_at: string;
  finished_at: string;
  body: string;
} {
  return {
    alert_id: d.alertId,
    sequence: d.sequence,
    outcome: d.outcome,
    attempts: d.attempts,
    last_status: d.lastStatus,
    last_error: d.lastError,
    raised_at: isoTime(d.raisedAt),
    finished_at: isoTime(d.finishedAt),
    body: d.body,
  };
}
