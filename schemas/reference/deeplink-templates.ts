import { DEEP_LINK_PLACEHOLDERS, DEEP_LINK_TEMPLATES } from './deeplinks.js';
import type { BookLinkTemplates } from './deeplinks.js';

export type DeepLinkTemplates = ReadonlyMap<string, BookLinkTemplates>;

/** US state (and DC, PR) codes accepted as `state`. */
export const US_STATES: ReadonlySet<string> = new Set(
  'al ak az ar ca co ct de dc fl ga hi id il in ia ks ky la me md ma mi mn ms mo mt ne nv nh nj nm ny nc nd oh ok or pa pr ri sc sd tn tx ut vt va wa wv wi wy'.split(
    ' ',
  ),
);
export const DEFAULT_STATE = 'pa';

const LEVELS = ['homepage', 'event', 'market', 'selection'] as const;
const PLACEHOLDER = /\{([a-z_]+)\}/g;

/** The built-in table as a Map (user-keyed lookups never touch an object's prototype). */
export function builtInTemplates(): DeepLinkTemplates {
  return new Map(Object.entries(DEEP_LINK_TEMPLATES));
}

/**
 * The built-in table with an operator's templates merged over it (the parsed JSON of the
 * DEEPLINK_TEMPLATES file): `{ "<book id>": {homepage, event?, market?, selection?, states?} |
 * null }`, null removing a built-in entry. Every template must be an http(s) URL using known
 * placeholders; the message names the book and field.
 */
export function withOperatorTemplates(parsed: unknown, knownBooks: ReadonlySet<string>): DeepLinkTemplates {
  const table = new Map(builtInTemplates());
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error('DEEPLINK_TEMPLATES: the file must hold an object of sportsbook id -> templates');
  for (const [book, entry] of Object.entries(parsed as Record<string, unknown>)) {
    if (!knownBooks.has(book)) throw new Error(`DEEPLINK_TEMPLATES: unknown sportsbook '${book}'`);
    if (entry === null) {
      table.delete(book);
      continue;
    }
    table.set(book, validateTemplates(book, entry));
  }
  return table;
}

function validateTemplates(book: string, entry: unknown): BookLinkTemplates {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
    throw new Error(`DEEPLINK_TEMPLATES: '${book}' must be an object or null`);
  const e = entry as Record<string, unknown>;
  for (const key of Object.keys(e)) {
    if (!(LEVELS as readonly string[]).includes(key) && key !== 'states')
      throw new Error(`DEEPLINK_TEMPLATES: '${book}.${key}' is not a field (${[...LEVELS, 'states'].join(', ')})`);
  }
  const out: { -readonly [K in keyof BookLinkTemplates]: BookLinkTemplates[K] } = { homepage: '' };
  for (const level of LEVELS) {
    const t = e[level];
    if (t === undefined && level !== 'homepage') continue;
    if (typeof t !== 'string' || !/^https?:\/\/\S+$/.test(t))
      throw new Error(`DEEPLINK_TEMPLATES: '${book}.${level}' must be an http(s) URL template`);
    for (const [, name] of t.matchAll(PLACEHOLDER)) {
      if (!(DEEP_LINK_PLACEHOLDERS as readonly string[]).includes(name ?? ''))
        throw new Error(
          `DEEPLINK_TEMPLATES: '${book}.${level}' uses {${name}}; placeholders are ${DEEP_LINK_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}`,
        );
      if (level === 'homepage' && name !== 'state') throw new Error(`DEEPLINK_TEMPLATES: '${book}.homepage' may use only {state}`);
    }
    out[level] = t;
  }
  if (e['states'] !== undefined) {
    const states = e['states'];
    if (!Array.isArray(states) || !states.every((s) => typeof s === 'string' && US_STATES.has(s)))
      throw new Error(`DEEPLINK_TEMPLATES: '${book}.states' must be a list of lowercase US state codes`);
    out.states = states as string[];
  }
  return out;
}

/** Fills a template; null when a placeholder has no value. */
export function fillTemplate(template: string, values: Readonly<Partial<Record<string, string | null>>>): string | null {
  let missing = false;
  const url = template.replace(PLACEHOLDER, (_, name: string) => {
    const v = Object.hasOwn(values, name) ? values[name] : undefined;
    if (v === undefined || v === null || v === '') {
      missing = true;
      return '';
    }
    return encodeURIComponent(v);
  });
  return missing ? null : url;
}
