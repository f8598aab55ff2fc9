import { describe, expect, it } from 'vitest';
import { backoffDelay, creditsPerCall, nextPeriodReset, parseQuotaHeaders, parseRetryAfter, planInterval } from './quota.js';
import type { IntervalInputs } from './quota.js';

const NOW = Date.parse('2025-11-16T00:00:00Z');
const RESET = Date.parse('2025-12-01T00:00:00Z'); // 15 days = 1,296,000,000 ms away

const inputs = (over: Partial<IntervalInputs>): IntervalInputs => ({
  nowMs: NOW,
  remaining: null,
  used: null,
  monthlyCreditBudget: null,
  costPerCycle: 6,
  periodResetMs: RESET,
  minIntervalMs: 10_000,
  maxIntervalMs: 3_600_000,
  preferredIntervalMs: null,
  defaultIntervalMs: 60_000,
  ...over,
});

describe('credits', () => {
  it('costs markets x regions per call', () => {
    expect(creditsPerCall(3, 2)).toBe(6);
    expect(creditsPerCall(1, 1)).toBe(1);
  });

  it('reads the quota headers', () => {
    const headers = new Headers({ 'x-requests-remaining': '19850', 'x-requests-used': '150', 'x-requests-last': '3' });
    expect(parseQuotaHeaders(headers)).toEqual({ remaining: 19850, used: 150, last: 3 });
    expect(parseQuotaHeaders(new Headers())).toEqual({ remaining: null, used: null, last: null });
  });

  it('resets on the given day of the next month, 00:00 UTC', () => {
    expect(nextPeriodReset(NOW, 1)).toBe(RESET);
    expect(nextPeriodReset(NOW, 20)).toBe(Date.parse('2025-11-20T00:00:00Z'));
    expect(nextPeriodReset(Date.parse('2025-12-31T23:00:00Z'), 1)).toBe(Date.parse('2026-01-01T00:00:00Z'));
    expect(nextPeriodReset(RESET, 1)).toBe(Date.parse('2026-01-01T00:00:00Z'));
  });
});

describe('planning the polling interval', () => {
  it('spreads the remaining credits until the period resets', () => {
    // 6,000 credits / 6 per cycle = 1,000 cycles over 15 days: every 1,296 s.
    expect(planInterval(inputs({ remaining: 6_000 }))).toEqual({ kind: 'poll', intervalMs: 1_296_000, availableCredits: 6_000 });
  });

  it('grows the interval as the credits run low', () => {
    const plenty = planInterval(inputs({ remaining: 60_000 }));
    const low = planInterval(inputs({ remaining: 600 }));
    expect(plenty).toMatchObject({ intervalMs: 129_600 });
    expect(low).toMatchObject({ intervalMs: 3_600_000 }); // 12,960 s, held at the 1 h ceiling
  });

  it('never polls faster than the floor, nor than the operator asks', () => {
    expect(planInterval(inputs({ remaining: 5_000_000 }))).toMatchObject({ intervalMs: 10_000 });
    expect(planInterval(inputs({ remaining: 5_000_000, preferredIntervalMs: 30_000 }))).toMatchObject({ intervalMs: 30_000 });
  });

  it('caps spending at the monthly budget', () => {
    // 50,000 remaining on the account, but a budget of 20,000 with 800 used: 19,200 / 6 = 3,200 cycles.
    expect(planInterval(inputs({ remaining: 50_000, used: 800, monthlyCreditBudget: 20_000 }))).toEqual({
      kind: 'poll',
      intervalMs: 405_000,
      availableCredits: 19_200,
    });
  });

  it('pauses until the reset when fewer credits remain than a cycle costs', () => {
    expect(planInterval(inputs({ remaining: 5 }))).toEqual({ kind: 'exhausted', resumeAt: RESET, availableCredits: 5 });
    expect(planInterval(inputs({ remaining: 0 }))).toMatchObject({ kind: 'exhausted' });
  });

  it('uses the default interval when nothing is known of the credits', () => {
    expect(planInterval(inputs({}))).toEqual({ kind: 'poll', intervalMs: 60_000, availableCredits: null });
  });
});

describe('backoff', () => {
  it('doubles per failure with half the step jittered, up to the cap', () => {
    expect(backoffDelay(1, 2_000, 300_000, () => 0)).toBe(1_000);
    expect(backoffDelay(1, 2_000, 300_000, () => 0.5)).toBe(1_500);
    expect(backoffDelay(3, 2_000, 300_000, () => 0)).toBe(4_000);
    expect(backoffDelay(20, 2_000, 300_000, () => 0)).toBe(150_000);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('7', NOW)).toBe(7_000);
    expect(parseRetryAfter('Sun, 16 Nov 2025 00:00:30 GMT', NOW)).toBe(30_000);
    expect(parseRetryAfter(null, NOW)).toBeNull();
    expect(parseRetryAfter('soon', NOW)).toBeNull();
  });
});
