/**
 * Development: what grew between two sampling heap profiles of the soak's server
 * (`SOAK_HEAP_PROFILE_DIR`, docs/soak.md). Each profile holds the objects live after a full
 * collection, by the stack that allocated them; every sampled byte is charged to the deepest
 * frame of this project's code on that stack (its allocating function), and the two are
 * compared. Run it on the compiled server (`dist/`) for real line numbers.
 *
 *   npx tsx bench/heap-profile-diff.ts <earlier.json> <later.json> [rows]
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

const root = resolve('.');

/** Live sampled bytes per allocating function of the project (the rest as one line). */
function bytesByFunction(file: string): Map<string, number> {
  const { head } = JSON.parse(readFileSync(file, 'utf8')) as { head: ProfileNode };
  const out = new Map<string, number>();
  const walk = (node: ProfileNode, owner: string): void => {
    const { functionName, url, lineNumber } = node.callFrame;
    const path = url.replace(/^file:\/\//, '');
    const ours = path.startsWith(root) && !path.includes('/node_modules/');
    const here = ours ? `${functionName || '(anonymous)'} ${path.slice(root.length + 1)}:${lineNumber + 1}` : owner;
    if (node.selfSize > 0) out.set(here, (out.get(here) ?? 0) + node.selfSize);
    for (const child of node.children) walk(child, here);
  };
  walk(head, '(outside the project)');
  return out;
}

const [earlier, later, rowsArg] = process.argv.slice(2);
if (!earlier || !later) {
  process.stderr.write('usage: heap-profile-diff <earlier.json> <later.json> [rows]\n');
  process.exit(2);
}
const before = bytesByFunction(earlier);
const after = bytesByFunction(later);
const total = (m: Map<string, number>): number => [...m.values()].reduce((sum, v) => sum + v, 0);
const mb = (bytes: number): string => (bytes / 1e6).toFixed(2);
const growth = [...new Set([...before.keys(), ...after.keys()])]
  .map((where) => ({ where, grew: (after.get(where) ?? 0) - (before.get(where) ?? 0), now: after.get(where) ?? 0 }))
  .sort((a, b) => b.grew - a.grew);
process.stdout.write(`live (sampled): ${mb(total(before))} MB -> ${mb(total(after))} MB\n`);
for (const { where, grew, now } of growth.slice(0, Number(rowsArg ?? 25))) {
  process.stdout.write(`${mb(grew).padStart(8)} MB  (now ${mb(now)})  ${where}\n`);
}
