import { describe, expect, it } from 'vitest';
import { entityTag } from './envelope.js';

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
