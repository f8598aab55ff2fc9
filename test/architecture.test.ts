// runtime/ is the only composition root: api/ and pipeline/ are assembled by it and never reach
// back into it, and schemas/ (the contracts every layer shares) depends on no layer at all.
// Type-only imports count too: they are where an upward dependency starts.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Which layers each layer may not import from. */
const FORBIDDEN: Record<string, readonly string[]> = {
  api: ['runtime'],
  pipeline: ['runtime'],
  schemas: ['api', 'pipeline', 'runtime'],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

/** The project files `file` imports or re-exports from, statically (`import type` included), as paths from the root. */
function importsOf(file: string): { specifier: string; target: string }[] {
  const info = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, false);
  return info.importedFiles
    .filter((i) => i.fileName.startsWith('.'))
    .map((i) => ({ specifier: i.fileName, target: relative(ROOT, resolve(ROOT, dirname(file), i.fileName)).replace(/\.js$/, '.ts') }));
}

const layerOf = (path: string): string => path.split(sep)[0] ?? '';

/** Layers whose import cycles fail the test: all of them (bench/, scripts/ and test/ import but are not walked). */
const CYCLE_FREE: readonly string[] = ['api', 'schemas', 'runtime', 'pipeline'];
/** Every layer walked: runtime/ too, for its own cycles (nothing is forbidden to it). */
const LAYERS = [...Object.keys(FORBIDDEN), 'runtime'];
const files = LAYERS.flatMap(sourceFiles);
const graph = new Map(files.map((f) => [f, importsOf(f)]));

/** Import cycles among the files walked, each as the files around it. */
function cycles(): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const { target } of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (state.get(target) === 'open') found.push([...stack.slice(stack.indexOf(target)), target]);
      else if (!state.has(target)) visit(target);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

/**
 * The component a file belongs to: a direct subfolder of a layer (`api/views`), or a top-level
 * file of a layer on its own (`api/app.ts`).
 */
function componentOf(path: string): string {
  const parts = path.split(sep);
  return parts.length > 2 ? parts.slice(0, 2).join(sep) : path;
}

/** Whether `file` loads `specifier` lazily, with `import()`. */
const loadsLazily = (file: string, specifier: string): boolean =>
  new RegExp(`import\\(\\s*['"]${specifier.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}['"]`).test(readFileSync(join(ROOT, file), 'utf8'));

describe('layering', () => {
  it('reads every source file of api/, pipeline/, schemas/ and runtime/', () => {
    for (const layer of LAYERS) expect(files.filter((f) => layerOf(f) === layer).length, layer).toBeGreaterThan(5);
  });

  it('api/ and pipeline/ import nothing from runtime/; schemas/ imports from no other layer', () => {
    const offending = [...graph].flatMap(([file, imports]) =>
      imports
        .filter(({ target }) => FORBIDDEN[layerOf(file)]?.includes(layerOf(target)))
        .map(({ specifier }) => `${file} imports '${specifier}'`),
    );
    expect(offending).toEqual([]);
  });

  it('has no import cycle in api/, pipeline/, schemas/ or runtime/', () => {
    // A cycle means neither side can be understood, tested or moved without the other; with
    // type-only imports it is where a layer starts leaning on what is built on top of it.
    const found = cycles();
    for (const cycle of found) process.stdout.write(`import cycle: ${cycle.join(' -> ')}\n`);
    const failing = found.filter((cycle) => cycle.some((f) => CYCLE_FREE.includes(layerOf(f))));
    expect(failing.map((cycle) => cycle.join(' -> '))).toEqual([]);
  });

  it('components reach each other only through their index.ts (tests exempt)', () => {
    // What a folder exports from its index.ts is all the rest of the code may rely on; an import
    // of an inner file ties the importer to how the folder happens to be cut into files. A lazy
    // `import()` may name an index.ts deeper in the folder (a feed source loaded on demand), since
    // the folder's own index.ts would load every sibling with it.
    const offending = [...graph]
      .filter(([file]) => !file.endsWith('.test.ts'))
      .flatMap(([file, imports]) =>
        imports
          .filter(({ target }) => LAYERS.includes(layerOf(target)) && componentOf(target) !== componentOf(file))
          .filter(({ specifier, target }) => {
            const component = componentOf(target);
            if (component === target) return false;
            if (target === join(component, 'index.ts')) return false;
            return !(target.endsWith(`${sep}index.ts`) && loadsLazily(file, specifier));
          })
          .map(({ specifier }) => `${file} imports '${specifier}'`),
      );
    expect(offending).toEqual([]);
  });
});
