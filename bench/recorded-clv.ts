import type { ClvGrade, EvOpportunity } from '../schemas/index.js';
import { ClosingProcessor } from '../pipeline/closing/index.js';
import type { ClosingInput } from '../pipeline/closing/index.js';
import { DEFAULT_PHANTOM_POLICY, isPhantom } from '../pipeline/opportunities/index.js';
import type { ConfidenceGrade } from './beat-the-close.js';
import { ProcessorChain, replayRecording } from './processor-chain.js';

/**
 * Pre-kickoff +EV opportunities of an Odds API recording graded against the recorded close:
 * the recording replayed through the pipeline's processors (normalizer, snapshot, opportunity
 * engines) and its closing processor, which captures every book's last pre-match price at the
 * first live sight of a game and grades each +EV entry's no-vig CLV against the sharp close.
 *
 * One grade per (event, book, market, selection, line), i.e. per opportunity id: its first
 * sighting that the list showed, the price and the confidence a user would have seen first (the
 * served `confidence_score` of the default method, power). Later occurrences of the
 * same price are the same bet seen again and would weigh long-lived prices many times. Only
 * what the default `/opportunities/ev` list shows at that moment counts: power EV at or above 0
 * (the list's `min_ev`) and not a phantom.
 */

export interface RecordedClv {
  /** Graded first sightings, in the order they were detected. */
  graded: (ConfidenceGrade & { id: string; eventId: string; book: string; evPercent: number; detectedAt: number })[];
  /** First sightings of games that did not kick off inside the recording (no close to grade against). */
  notClosed: number;
  /** First sightings whose line did not close at a reference book (the line moved away, or the reference left it). */
  noReferenceClose: number;
  /** Occurrences left out as phantoms (VERY_STALE_ODDS) at detection: the first one shown counts instead. */
  phantoms: number;
}

export async function gradeRecordedEv(path: string): Promise<RecordedClv> {
  const chain = new ProcessorChain();
  const closing = new ClosingProcessor();
  const first = new Map<string, EvOpportunity>();
  const grades = new Map<string, ClvGrade>();
  let phantoms = 0;
  await replayRecording(path, chain, (at, out) => {
    const inputs: ClosingInput[] = [
      ...out.events.map((event): ClosingInput => ({ type: 'event', event })),
      ...out.changes.map((change): ClosingInput => ({ type: 'odds', change })),
      ...out.opportunities.map((c): ClosingInput => ({ type: 'opportunity', opportunity: c.opportunity })),
    ];
    for (const c of out.opportunities) {
      const o = c.opportunity;
      if (c.type !== 'create' || o.kind !== 'ev' || o.event.isLive || o.detectedAt >= o.event.startTime) continue;
      if (first.has(o.id) || o.methods.power.evPercent < 0) continue;
      if (isPhantom(o, o.detectedAt, DEFAULT_PHANTOM_POLICY)) {
        phantoms++;
        continue;
      }
      first.set(o.id, o);
    }
    for (const g of closing.handleBatch(inputs, at).grades) grades.set(`${g.opportunityId}@${g.detectedAt}`, g);
  });
  const graded: RecordedClv['graded'] = [];
  let notClosed = 0;
  let noReferenceClose = 0;
  for (const o of first.values()) {
    const g = grades.get(`${o.id}@${o.detectedAt}`);
    if (g === undefined) {
      notClosed++;
      continue;
    }
    if (g.clvPercent === null) {
      noReferenceClose++;
      continue;
    }
    graded.push({
      id: o.id,
      eventId: o.eventId,
      book: o.book,
      detectedAt: o.detectedAt,
      evPercent: o.methods.power.evPercent,
      confidence: o.methods.power.confidenceScore,
      clvPercent: g.clvPercent,
    });
  }
  return { graded, notClosed, noReferenceClose, phantoms };
}
