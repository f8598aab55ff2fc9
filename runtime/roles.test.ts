import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Every project module `file` loads, statically or dynamically, by relative specifier. */
function importGraph(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  for (const m of source.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
    const spec = m[1] ?? '';
    importGraph(resolve(dirname(file), spec.replace(/\.js$/, '.ts')), seen);
  }
  return seen;
}

describe('process roles', () => {
  it('ROLE=pipeline loads no module of api/', () => {
    const modules = [...importGraph(join(ROOT, 'runtime', 'pipeline-role.ts'))].map((f) => relative(ROOT, f));
    expect(modules.length).toBeGreaterThan(20);
    expect(modules.filter((m) => m.startsWith('api/'))).toEqual([]);
  });

  it('the entry reaches api/ only through the dynamic import of the roles that serve it', () => {
    const main = readFileSync(join(ROOT, 'runtime', 'main.ts'), 'utf8');
    const staticImports = [...main.matchAll(/^import [^;]*from '([^']+)'/gm)].map((m) => m[1]);
    expect(staticImports.filter((s) => s?.includes('api/'))).toEqual([]);
  });
});
