import { describe, expect, it } from 'vitest';
import type { CanonicalEvent, OddsRow } from '../../schemas/index.js';
import { ManualClock } from '../../pipeline/clock.js';
import { buildBoard, repriced } from '../../bench/board-fixture.js';
import { Catalog } from '../views/catalog.js';
import { paginatedEnvelope } from '../contract/common.js';
import { oddsListItemSchema } from '../contract/odds.js';
import { OddsFragments, RawRows, envelopeSerializer, splicedRows } from '../contract/odds-fragments.js';
import { entityTag, splicedTag } from './envelope.js';

// The tag is now taken over the answer's encoded bytes (hashed and sent as one buffer) instead of
// the string with the emit time cut out by a copy. Clients hold tags across deploys, so the values
// must be exactly what the string form gave: these were computed with it.
describe('entityTag over the encoded answer', () => {
  const body = '{"success":true,"data":[{"id":"a","price":-110,"book":"Café"}],"updated_at":"2026-11-29T05:00:00.000Z","meta":{}}';
  const emitted = '"updated_at":"2026-11-29T05:00:00.000Z"';

  it('leaves out the emit time, giving the tag the string form gave', () => {
    expect(entityTag('pro', Buffer.from(body), emitted)).toBe('"vzESTyWwzq2ehkrffEmkTmG5Vfk"');
  });

  it('hashes the whole body when there is nothing to leave out, or it is not there', () => {
    expect(entityTag('pro', Buffer.from(body))).toBe('"bxoUMfVEVinXCOLtAKeCnvU1cBk"');
    expect(entityTag('pro', Buffer.from(body), '"updated_at":"1999-01-01T00:00:00.000Z"')).toBe('"bxoUMfVEVinXCOLtAKeCnvU1cBk"');
  });

  it('gives the same content the same tag whatever its emit time, and scopes it to the tier', () => {
    const later = body.replace('05:00:00.000Z', '05:00:01.000Z');
    const laterTag = entityTag('pro', Buffer.from(later), '"updated_at":"2026-11-29T05:00:01.000Z"');
    expect(laterTag).toBe('"vzESTyWwzq2ehkrffEmkTmG5Vfk"');
    expect(entityTag('enterprise', Buffer.from(body), emitted)).not.toBe(laterTag);
  });
});

// A page whose rows were spliced in ready is tagged over the rows' digests instead of their bytes.
// Its tag has another value than the bytes' tag would; what must hold is that it changes exactly
// when the bytes sent (emit time aside) change.
describe('splicedTag over a page of ready rows', () => {
  const catalog = new Catalog();
  const schema = paginatedEnvelope(oddsListItemSchema, { type: 'object', properties: { total: { type: 'integer' } } });
  const serialize = envelopeSerializer(schema);
  const clock = new ManualClock(Date.UTC(2026, 10, 21, 18));
  const { board, events } = buildBoard(1, clock);
  const e = events[0] as CanonicalEvent;
  const rows = board.rowsOf(e.id).slice(0, 4);
  const repriced0 = repriced(rows[0] as OddsRow, clock.now() + 1000);

  /** A page as the route writes it, with its tag, from a cache of its own (new fragment objects). */
  function page(pageRows: readonly OddsRow[], at: string, total = 4, tier = 'pro'): { bytes: Buffer; tag: string } {
    const fragments = new OddsFragments(catalog, 'list');
    const main = board.mainLines(e.id);
    const data = new RawRows(pageRows.map((r) => fragments.of(r, e, main)));
    const bytes = serialize({
      success: true,
      data,
      pagination: { limit: 4, offset: 0, has_more: false, next_offset: null },
      meta: { total },
      updated_at: at,
    }) as Buffer;
    const spliced = splicedRows(bytes);
    if (!spliced) throw new Error('not spliced');
    return { bytes, tag: splicedTag(tier, bytes, spliced, `"updated_at":"${at}"`) };
  }

  it('stays the same for the same bytes, whatever the emit time and the fragment objects', () => {
    const a = page(rows, '2026-11-29T05:00:00.000Z');
    const b = page(rows, '2026-11-29T05:00:01.123Z');
    expect(b.tag).toBe(a.tag);
    expect(a.tag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
  });

  it('changes whenever the bytes do, and only then', () => {
    const at = '2026-11-29T05:00:00.000Z';
    const [r0, r1, r2, r3] = rows as [OddsRow, OddsRow, OddsRow, OddsRow];
    const pages = [
      page([r0, r1, r2, r3], at),
      page([r0, r1, r2, r3], at, 5),
      page([r1, r0, r2, r3], at),
      page([r0, r1, r2], at),
      page([repriced0, r1, r2, r3], at),
      page([r0, r1, r2, r3], at, 4, 'enterprise'),
      page([r0, r1, r2, r3], '2026-11-29T06:00:00.000Z'),
      page([r1, r0, r2, r3], '2026-11-29T06:00:00.000Z'),
    ];
    const content = (p: { bytes: Buffer }, i: number): string =>
      `${i === 5 ? 'enterprise' : 'pro'}|${p.bytes.toString().replace(/"updated_at":"[^"]*"/, '')}`;
    for (let i = 0; i < pages.length; i++) {
      for (let j = 0; j < pages.length; j++) {
        const [a, b] = [pages[i] as { bytes: Buffer; tag: string }, pages[j] as { bytes: Buffer; tag: string }];
        expect([i, j, a.tag === b.tag]).toEqual([i, j, content(a, i) === content(b, j)]);
      }
    }
    // Pairs that are equal exist: the same rows at another emit time.
    expect(pages[6]?.tag).toBe(pages[0]?.tag);
    expect(pages[7]?.tag).toBe(pages[2]?.tag);
  });
});
