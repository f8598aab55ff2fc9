/**
 * Suspended rows stay on the board (locked) instead of leaving it, so changelog rows gained
 * `isActive` and `suspendedSince`. The `odds.snapshot` topic is compacted and read from the
 * beginning at every start: records written before must still be read, and read as active rows.
 */
import avro from 'avsc';
import { describe, expect, it } from 'vitest';
import { AVRO_SCHEMAS, oddsRowKey } from '../../schemas/index.js';
import type { OddsChange, OddsTick } from '../../schemas/index.js';
import { assertBackwardCompatible } from '../bus/codec.js';
import { SnapshotProcessor } from './snapshot-processor.js';

interface AvroRecord {
  fields: { name: string; type: unknown }[];
}

/** The schema as registered before the two fields existed. */
function previousSchema(): AvroRecord {
  const current = JSON.parse(JSON.stringify(AVRO_SCHEMAS['odds.snapshot'])) as AvroRecord;
  const row = current.fields.find((f) => f.name === 'row') as { type: [string, AvroRecord] };
  row.type[1].fields = row.type[1].fields.filter((f) => f.name !== 'isActive' && f.name !== 'suspendedSince');
  return current;
}

const TICK: OddsTick = {
  eventId: 'e1',
  book: 'draftkings',
  market: 'moneyline',
  selection: 'home',
  line: null,
  participant: null,
  statCategory: null,
  priceAmerican: -110,
  status: 'open',
  ts: 1000,
  isLive: false,
  bookEventId: 'dk1',
  selectionId: null,
};

describe('the odds.snapshot changelog schema', () => {
  it('is BACKWARD compatible with the one before suspended rows: old records read as active rows', () => {
    const before = previousSchema();
    assertBackwardCompatible('odds.snapshot-value', JSON.stringify(before), JSON.stringify(AVRO_SCHEMAS['odds.snapshot']));
    const oldType = avro.Type.forSchema(before as avro.Schema);
    const newType = avro.Type.forSchema(AVRO_SCHEMAS['odds.snapshot'] as avro.Schema);
    const { isActive: _a, suspendedSince: _s, ...oldRow } = new SnapshotProcessor().handle(TICK, 1)?.row ?? {};
    const written = oldType.toBuffer({ key: oddsRowKey(TICK), eventId: 'e1', row: oldRow, changedAt: 1 });
    const read = newType.fromBuffer(written, newType.createResolver(oldType)) as OddsChange;
    // The wire reads a missing exchange quote as null (the codec leaves it out again).
    expect(read.row).toEqual({ ...oldRow, isActive: true, suspendedSince: null, exchange: null });

    const s = new SnapshotProcessor();
    s.restore({ ...read, key: oddsRowKey(TICK) });
    expect(s.handle({ ...TICK, status: 'suspended', ts: 2000 }, 2)?.row).toMatchObject({ isActive: false, suspendedSince: 2000 });
  });

  it('round-trips a locked row', () => {
    const type = avro.Type.forSchema(AVRO_SCHEMAS['odds.snapshot'] as avro.Schema);
    const s = new SnapshotProcessor();
    s.handle(TICK, 1);
    const locked = s.handle({ ...TICK, status: 'suspended', ts: 2000 }, 2) as OddsChange;
    expect(type.fromBuffer(type.toBuffer(locked))).toEqual({ ...locked, row: { ...locked.row, exchange: null } });
  });
});
