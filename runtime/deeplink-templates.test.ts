import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDeepLinkTemplates } from './deeplink-templates.js';

const dir = mkdtempSync(join(tmpdir(), 'deeplinks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const books = new Set(['draftkings', 'bovada', 'betmgm']);
const file = (content: unknown): string => {
  const f = join(dir, `${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(f, typeof content === 'string' ? content : JSON.stringify(content));
  return f;
};

describe('an operator templates file', () => {
  it('adds books, replaces built-in entries and removes them with null', () => {
    const t = loadDeepLinkTemplates(
      file({
        bovada: { homepage: 'https://www.bovada.lv', event: 'https://www.bovada.lv/sports/{sport}/{event_id}', states: ['nj'] },
        betmgm: null,
      }),
      books,
    );
    expect(t.get('bovada')).toEqual({
      homepage: 'https://www.bovada.lv',
      event: 'https://www.bovada.lv/sports/{sport}/{event_id}',
      states: ['nj'],
    });
    expect(t.has('betmgm')).toBe(false);
    expect(t.has('draftkings')).toBe(true);
  });

  it('names the book and field of every mistake', () => {
    expect(() => loadDeepLinkTemplates(file({ nobook: { homepage: 'https://x' } }), books)).toThrow("unknown sportsbook 'nobook'");
    expect(() => loadDeepLinkTemplates(file({ bovada: { event: 'https://x/{event_id}' } }), books)).toThrow(
      "'bovada.homepage' must be an http(s) URL template",
    );
    expect(() => loadDeepLinkTemplates(file({ bovada: { homepage: 'https://x', event: 'https://x/{eventid}' } }), books)).toThrow(
      "'bovada.event' uses {eventid}",
    );
    expect(() => loadDeepLinkTemplates(file({ bovada: { homepage: 'https://x/{event_id}' } }), books)).toThrow(
      "'bovada.homepage' may use only {state}",
    );
    expect(() => loadDeepLinkTemplates(file({ bovada: { homepage: 'javascript:alert(1)' } }), books)).toThrow('http(s) URL');
    expect(() => loadDeepLinkTemplates(file({ bovada: { homepage: 'https://x', state: ['nj'] } }), books)).toThrow(
      "'bovada.state' is not a field",
    );
    expect(() => loadDeepLinkTemplates(file({ bovada: { homepage: 'https://x', states: ['NJ'] } }), books)).toThrow(
      'lowercase US state codes',
    );
    expect(() => loadDeepLinkTemplates(file('{not json'), books)).toThrow('DEEPLINK_TEMPLATES: cannot read');
  });
});
