import type { BookFreshness, Distribution, FreshnessReport, PhaseFreshness } from '../../pipeline/freshness/index.js';
import { isoTime, nullableNumber } from './common.js';

/** The freshness ledger's figures as clients get them (GET /freshness, the `freshness` block of /sportsbooks). */

const distributionSchema = (what: string) =>
  ({
    type: 'object',
    required: ['count', 'p50', 'p95', 'p99'],
    description: `${what}, seconds, over the window; percentiles null without a sample.`,
    properties: { count: { type: 'integer' }, p50: nullableNumber, p95: nullableNumber, p99: nullableNumber },
  }) as const;

const phaseSchema = {
  type: 'object',
  required: ['confirmation_age_seconds', 'feed_lag_seconds', 'updates_per_minute', 'rows', 'suspended_share', 'stale_after_seconds'],
  properties: {
    confirmation_age_seconds: distributionSchema(
      'How long a price had gone without a word from the book when the book next set or confirmed it',
    ),
    feed_lag_seconds: distributionSchema(
      'On a moved price, how long after the book moved it our feed saw it (observed_at - odds_changed_at)',
    ),
    updates_per_minute: { type: 'number', description: 'Prices set or confirmed per minute over the window.' },
    rows: { type: 'integer', description: 'Rows of the book in this phase on the board now.' },
    suspended_share: { type: 'number', description: 'Share of those rows suspended now, 0-1.' },
    stale_after_seconds: {
      type: 'number',
      description: "The book's stale threshold in this phase now: max(floor, 2 x p95 confirmation age) (docs/opportunities.md).",
    },
  },
} as const;

export const freshnessBlockSchema = {
  type: 'object',
  required: ['live', 'prematch'],
  description: "The book's measured freshness over the last 15 minutes, live and pre-match apart.",
  properties: { live: phaseSchema, prematch: phaseSchema },
} as const;

export const bookFreshnessSchema = {
  type: 'object',
  required: ['sportsbook', 'live', 'prematch'],
  properties: { sportsbook: { type: 'string' }, live: phaseSchema, prematch: phaseSchema },
} as const;

export const freshnessMetaSchema = {
  type: 'object',
  required: ['count', 'window'],
  properties: {
    count: { type: 'integer' },
    window: {
      type: 'object',
      required: ['from', 'to', 'seconds'],
      description: 'The window the figures cover; `to` is the newest price seen (null before any).',
      properties: {
        from: { type: ['string', 'null'], format: 'date-time' },
        to: { type: ['string', 'null'], format: 'date-time' },
        seconds: { type: 'integer' },
      },
    },
  },
} as const;

function distribution(d: Distribution): { count: number; p50: number | null; p95: number | null; p99: number | null } {
  return { count: d.count, p50: d.p50, p95: d.p95, p99: d.p99 };
}

function phase(p: PhaseFreshness) {
  return {
    confirmation_age_seconds: distribution(p.confirmationAgeSeconds),
    feed_lag_seconds: distribution(p.feedLagSeconds),
    updates_per_minute: p.updatesPerMinute,
    rows: p.rows,
    suspended_share: p.suspendedShare,
    stale_after_seconds: p.staleAfterSeconds,
  };
}

export function presentFreshnessBlock(b: BookFreshness) {
  return { live: phase(b.live), prematch: phase(b.prematch) };
}

export function presentBookFreshness(b: BookFreshness) {
  return { sportsbook: b.book, ...presentFreshnessBlock(b) };
}

export function presentWindow(report: FreshnessReport, windowMs: number, empty: boolean) {
  return {
    from: empty ? null : isoTime(report.from),
    to: empty ? null : isoTime(report.to),
    seconds: Math.round(windowMs / 1000),
  };
}
