import type { ClvGrade, EvOpportunity, OddsRow } from '../schemas/index.js';
import { ClosingProcessor } from '../pipeline/closing/index.js';
import type { ClosingInput } from '../pipeline/closing/index.js';
import { DEFAULT_PHANTOM_POLICY, isPhantom } from '../pipeline/opportunities/index.js';
import type { ConfidenceGrade } from './beat-the-close.js';
import { ProcessorChain, replayRecording } from './processor-chain.js';
import { candidateConfidence } from './confidence-candidate.js';

/**
 * Pre-kickoff +EV opportunities of an Odds API recording graded against the recorded close:
 * the recording replayed through the pipeline's processors (normalizer, snapshot, opportunity
 * engines) and its closing processor, which captures every book's last pre-match price at the
 * first live sight of a game and grades each +EV entry's no-vig CLV against the sharp close.
 *
 * One grade per (event, book, market, selection, line), i.e. per opportunity id: its first
 * sighting that the list showed, the price and the confidence a user would have seen first. Later occurrences of the
 * same price are the same bet seen again and would weigh long-lived prices many times. Only
 * what the default `/opportunities/ev` list shows at that moment counts: power EV at or above 0
 * (the list's `min_ev`) and not a phantom.
 */

export interface RecordedClv {
  /** Graded first sightings, in the order they were detected. */
  graded: (ConfidenceGrade & { id: string; eventId: string; book: string; evPercent: number; detectedAt: number; candidate: number })[];
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
  /** The second definition's score at each first sighting (bench/confidence-candidate.ts), from the board as it stood. */
  const candidates = new Map<string, number>();
  const rows = new Map<string, OddsRow>();
  const bySelection = new Map<string, Map<string, OddsRow>>();
  const selectionKey = (r: {
    eventId: string;
    market: string;
    participant: string | null;
    statCategory: string | null;
    selection: string;
    line: number | null;
  }): string => `${r.eventId}|${r.market}|${r.participant ?? ''}|${r.statCategory ?? ''}|${r.selection}|${r.line ?? ''}`;
  const grades = new Map<string, ClvGrade>();
  let phantoms = 0;
  await replayRecording(path, chain, (at, out) => {
    const inputs: ClosingInput[] = [
      ...out.events.map((event): ClosingInput => ({ type: 'event', event })),
      ...out.changes.map((change): ClosingInput => ({ type: 'odds', change })),
      ...out.opportunities.map((c): ClosingInput => ({ type: 'opportunity', opportunity: c.opportunity })),
    ];
    for (const c of out.changes) {
      const before = rows.get(c.key);
      if (before !== undefined) bySelection.get(selectionKey(before))?.delete(before.book);
      rows.delete(c.key);
      if (c.row === null) continue;
      rows.set(c.key, c.row);
      const k = selectionKey(c.row);
      const books = bySelection.get(k) ?? new Map<string, OddsRow>();
      books.set(c.row.book, c.row);
      bySelection.set(k, books);
    }
    for (const c of out.opportunities) {
      const o = c.opportunity;
      if (c.type !== 'create' || o.kind !== 'ev' || o.event.isLive || o.detectedAt >= o.event.startTime) continue;
      if (first.has(o.id) || o.methods.power.evPercent < 0) continue;
      if (isPhantom(o, o.detectedAt, DEFAULT_PHANTOM_POLICY)) {
        phantoms++;
        continue;
      }
      first.set(o.id, o);
      candidates.set(o.id, candidateOf(o, bySelection.get(selectionKey(o)), rows));
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
      candidate: candidates.get(o.id) ?? 0,
    });
  }
  return { graded, notClosed, noReferenceClose, phantoms };
}

/** The second definition's inputs read off the board at the first sighting. */
function candidateOf(o: EvOpportunity, books: ReadonlyMap<string, OddsRow> | undefined, rows: ReadonlyMap<string, OddsRow>): number {
  const own = books?.get(o.book);
  const sharp = new Set(o.sharpBooks);
  let referenceChangedAt: number | null = null;
  const byId = new Map<string, OddsRow>();
  for (const r of rows.values()) if (sharp.has(r.book) && r.eventId === o.eventId) byId.set(r.id, r);
  for (const p of o.references) {
    const r = byId.get(p.rowId);
    if (r !== undefined) referenceChangedAt = Math.max(referenceChangedAt ?? -Infinity, r.oddsChangedAt);
  }
  const otherPrices: number[] = [];
  for (const [book, r] of books ?? []) if (book !== o.book && !sharp.has(book) && r.isActive !== false) otherPrices.push(r.priceDecimal);
  return candidateConfidence({
    evPercent: o.methods.power.evPercent,
    priceDecimal: o.priceDecimal,
    bookChangedAt: own?.oddsChangedAt ?? o.oldestOddsTs,
    referenceChangedAt,
    otherPrices,
    referenceHoldPercent: o.confidence.referenceHoldPercent,
  });
}
