import { describe, expect, it } from 'vitest';
import type { EvOpportunity } from '../../schemas/index.js';
import { Harness, event, ml } from '../../pipeline/opportunities/fixtures/builders.js';
import { evConfidence } from '../contract/index.js';
import { evSortKeys } from './opportunities.js';

/**
 * Sorting +EV rows by confidence read the score stored in the record per method, while the rows
 * and the `min_confidence` filter show the score recomputed from the record's facts. A record
 * written before the score's definition changed kept its old stored figure, so `sort=confidence`
 * put rows in an order their own `confidence_score` contradicted.
 */
describe('sort=confidence on +EV rows', () => {
  function evRecord(): EvOpportunity {
    const h = new Harness({ referenceBooks: ['pinnacle'] });
    h.event(event());
    h.ticks([...ml('pinnacle', -110, -110), ...ml('draftkings', -115, 110)]);
    const o = h.active('ev').find((r): r is EvOpportunity => r.kind === 'ev');
    if (!o) throw new Error('the fixture should give one +EV record');
    return o;
  }

  it("orders by the score the rows show, not by a record's stored score from an older definition", () => {
    const base = evRecord();
    // Alone (no other book keeps its price) against in company with every other book: 30 points apart.
    const alone: EvOpportunity = {
      ...base,
      id: 'alone',
      confidence: { ...base.confidence, otherBooks: 4, otherBooksInCompany: 0 },
      methods: { ...base.methods, power: { ...base.methods.power, confidenceScore: 5 } },
    };
    const company: EvOpportunity = {
      ...base,
      id: 'company',
      confidence: { ...base.confidence, otherBooks: 4, otherBooksInCompany: 4 },
      methods: { ...base.methods, power: { ...base.methods.power, confidenceScore: 95 } },
    };
    const key = evSortKeys('power')['confidence'];
    if (!key) throw new Error('confidence is a sort key');
    expect([evConfidence(alone, 'power'), evConfidence(company, 'power')]).toEqual([72, 42]);
    expect([key({ o: alone } as never), key({ o: company } as never)]).toEqual([72, 42]);
  });
});
