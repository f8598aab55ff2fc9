import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CanonicalEvent, EvOpportunity, OddsTick, Opportunity, OpportunityChange } from '../../schemas/index.js';
import { SnapshotProcessor } from '../snapshot/index.js';
import { OpportunityProcessor } from './processor.js';

// A recorded sequence (fixtures/replay-sequence.jsonl: events and ticks with the pipeline time
// each was processed at) through the snapshot and opportunity processors. The expected file holds
// every change and the exact final set; UPDATE_GOLDEN=1 rewrites it after a deliberate change,
// and the spot checks below recompute a few values from the textbook formulas.

type Line = { at: number; event: CanonicalEvent } | { at: number; tick: OddsTick };

const dir = new URL('./fixtures/', import.meta.url);
const lines = readFileSync(new URL('replay-sequence.jsonl', dir), 'utf8')
  .split('\n')
  .filter((l) => l.length > 0)
  .map((l) => JSON.parse(l) as Line);

function replay(): { changes: OpportunityChange[]; active: Opportunity[] } {
  const snapshot = new SnapshotProcessor();
  // The hobby tier's books as a scope, as the system configures it (api/views/opportunity-board.ts);
  // the low-hold threshold the expectations were recorded at (the default was 2 then; it is 5 now).
  const processor = new OpportunityProcessor({
    bookScopes: [['betmgm', 'betonlineag', 'caesars', 'draftkings', 'fanduel']],
    lowHoldPercent: 2,
  });
  const changes: OpportunityChange[] = [];
  for (const l of lines) {
    if ('event' in l) {
      changes.push(...processor.handle({ type: 'event', event: l.event }, l.at));
      continue;
    }
    const change = snapshot.handle(l.tick, l.at);
    if (change) changes.push(...processor.handle({ type: 'odds', change }, l.at));
  }
  return { changes, active: processor.active() };
}

const expectedUrl = new URL('replay-sequence.expected.json', dir);
const { changes, active } = replay();
const summary = {
  changes: changes.map((c) => [
    c.opportunity.expiredAt ?? c.opportunity.lastSeenAt,
    c.type,
    c.opportunity.kind,
    c.opportunity.id,
    c.opportunity.expireReason,
  ]),
  active,
};
if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(expectedUrl, `${JSON.stringify(summary, null, 1)}\n`);
const expected = JSON.parse(readFileSync(expectedUrl, 'utf8')) as typeof summary;

const dec = (a: number): number => (a > 0 ? 1 + a / 100 : 1 + 100 / -a);
const find = (kind: Opportunity['kind'], legs: string): Opportunity | undefined =>
  active.find((o) => o.kind === kind && o.legs.map((l) => `${l.book}:${l.selection}`).join(' ') === legs);

describe('replay of a recorded tick sequence', () => {
  it('produces exactly the expected changes, in order', () => {
    expect(summary.changes).toEqual(expected.changes);
  });

  it('ends with exactly the expected opportunities, every value equal', () => {
    expect(active).toEqual(expected.active);
  });

  it('agrees with a hand computation of the arbitrage that replaced the suspended one', () => {
    const arb = find('arbitrage', 'fanduel:over betmgm:under');
    const s = 1 / dec(105) + 1 / dec(102);
    expect(arb?.kind === 'arbitrage' && arb.profitPercent).toBe(Math.round((1 / s - 1) * 100 * 1e4) / 1e4);
    expect(find('arbitrage', 'fanduel:over caesars:under')).toBeUndefined();
    expect(changes.find((c) => c.type === 'expire' && c.opportunity.kind === 'arbitrage')?.opportunity.expireReason).toBe('leg_removed');
  });

  it('agrees with a hand computation of the three-way +EV price (multiplicative de-vig)', () => {
    const o = find('ev', 'williamhill:draw') as EvOpportunity;
    const r = [-120, 280, 340].map((a) => 1 / dec(a));
    const p = (r[1] ?? 0) / r.reduce((x, y) => x + y, 0);
    expect(o.methods.multiplicative.fairProbability).toBe(Math.round(p * 1e6) / 1e6);
    expect(o.methods.multiplicative.evPercent).toBe(Math.round((p * dec(310) - 1) * 100 * 1e4) / 1e4);
    // Pinnacle's prices are two minutes old when William Hill moves: stale, and a single reference.
    expect([o.detectedAt, o.sharpBook, o.possiblyStale, o.warnings]).toEqual([
      lines[lines.length - 1]?.at,
      'pinnacle',
      true,
      ['POTENTIALLY_STALE_ODDS', 'SINGLE_SHARP_REF'],
    ]);
  });

  it('keeps detected_at across updates', () => {
    const o = find('ev', 'fanduel:over') as EvOpportunity;
    const first = changes.find((c) => c.opportunity.id === o.id);
    expect(first?.type).toBe('create');
    expect(o.detectedAt).toBe(first?.opportunity.detectedAt);
    expect(o.lastSeenAt).toBeGreaterThan(o.detectedAt);
  });
});
