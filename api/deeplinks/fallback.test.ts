import { describe, expect, it } from 'vitest';
import { US_STATES } from '../../schemas/reference/deeplink-templates.js';
import { acceptableFallback, templateOrigins } from './fallback.js';

describe('templateOrigins', () => {
  const origins = templateOrigins(
    new Map([
      ['fanduel', { homepage: 'https://sportsbook.fanduel.com', event: 'https://{state}.sportsbook.fanduel.com/event/{event_id}' }],
      ['local', { homepage: 'http://book.example:8080/{state}', event: 'https://{sport}.book.example/e/{event_id}' }],
    ]),
  );

  it("lists each template's origin, one per state where the host holds {state}", () => {
    expect(origins.has('https://sportsbook.fanduel.com')).toBe(true);
    expect(origins.has('https://nj.sportsbook.fanduel.com')).toBe(true);
    expect(origins.has('https://pa.sportsbook.fanduel.com')).toBe(true);
    expect(origins.has('http://book.example:8080')).toBe(true);
  });

  it("lists no host built from the listing's own values (it could be anything)", () => {
    expect([...origins].filter((o) => o.endsWith('.book.example'))).toEqual([]);
    expect(origins.size).toBe(1 + US_STATES.size + 1);
  });
});

describe('acceptableFallback', () => {
  const origins = new Set(['https://book.example']);

  it('keeps the port and scheme of the template: another one is another site', () => {
    expect(acceptableFallback('https://book.example/x', origins)).toBe('https://book.example/x');
    expect(acceptableFallback('https://book.example:443/x', origins)).toBe('https://book.example/x');
    expect(acceptableFallback('https://book.example:444/x', origins)).toBeNull();
    expect(acceptableFallback('http://book.example/x', origins)).toBeNull();
  });

  it('answers paths on this site as paths, never as something a browser reads as a host', () => {
    expect(acceptableFallback('/x?y=1', origins)).toBe('/x?y=1');
    expect(acceptableFallback('//book.example/x', origins)).toBeNull();
    expect(acceptableFallback('/.//evil.example', origins)).toBeNull();
    expect(acceptableFallback('/\n/evil.example', origins)).toBeNull();
  });
});
