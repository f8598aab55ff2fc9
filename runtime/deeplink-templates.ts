import { readFileSync } from 'node:fs';
import { builtInTemplates, withOperatorTemplates } from '../schemas/index.js';
import type { DeepLinkTemplates } from '../schemas/index.js';

/** The built-in deep-link templates, with the operator's DEEPLINK_TEMPLATES file (when one is named) merged over them. */
export function loadDeepLinkTemplates(file: string | null, knownBooks: ReadonlySet<string>): DeepLinkTemplates {
  if (file === null) return builtInTemplates();
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`DEEPLINK_TEMPLATES: cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
  return withOperatorTemplates(parsed, knownBooks);
}
