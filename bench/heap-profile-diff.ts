/**
 * Development: what grew across sampling heap profiles of the soak's server
 * (`SOAK_HEAP_PROFILE_DIR`, docs/soak.md). Each profile holds the objects live after a full
 * collection, by the stack that allocated them; every sampled byte is charged to the deepest
 * frame of this project's code on that stack (its allocating function). Run it on the compiled
 * server (`dist/`) for real line numbers.
 *
 * With two profiles it lists what grew most between them, then what shrank most: a row replaced
 * by one allocated elsewhere moves its bytes from one function to another, so a grower is read
 * beside the shrinkers before it is called a leak. With three or more it prints each function's
 * live bytes at every profile, so a bound still filling (growth that slows and stops) can be told
 * from a leak (growth at an even pace).
 *
 *   npx tsx bench/heap-profile-diff.ts <earlier.json> <later.json> [more.json ...] [--rows N]
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { heapDiffArgs } from './heap-profile-args.js';

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

const parsed = heapDiffArgs(process.argv.slice(2));
if (parsed === null) {
  process.stderr.write('usage: heap-profile-diff <earlier.json> <later.json> [more.json ...] [--rows N]\n');
  process.exit(2);
}
const { files, rows } = parsed;
const profiles = files.map(bytesByFunction);
const total = (m: Map<string, number>): number => [...m.values()].reduce((sum, v) => sum + v, 0);
const mb = (bytes: number): string => (bytes / 1e6).toFixed(2);
const first = profiles[0] as Map<string, number>;
const last = profiles[profiles.length - 1] as Map<string, number>;
const growth = [...new Set(profiles.flatMap((p) => [...p.keys()]))]
  .map((where) => ({ where, grew: (last.get(where) ?? 0) - (first.get(where) ?? 0), at: profiles.map((p) => p.get(where) ?? 0) }))
  .sort((a, b) => b.grew - a.grew);
process.stdout.write(`live (sampled): ${profiles.map((p) => `${mb(total(p))} MB`).join(' -> ')}\n`);
const line = ({ where, grew, at }: (typeof growth)[number]): string =>
  profiles.length === 2
    ? `${mb(grew).padStart(8)} MB  (now ${mb(at[1] ?? 0)})  ${where}\n`
    : `${mb(grew).padStart(8)} MB  (${at.map(mb).join(' -> ')})  ${where}\n`;
process.stdout.write('grew most:\n');
for (const g of growth.slice(0, rows)) process.stdout.write(line(g));
process.stdout.write('shrank most:\n');
for (const g of growth.slice(-Math.min(rows, 10)).reverse()) if (g.grew < 0) process.stdout.write(line(g));
// Per component folder, growers and shrinkers netted: the component's own growth.
const folders = new Map<string, { where: string; grew: number; at: number[] }>();
for (const g of growth) {
  const where = /^\S+ (?:dist\/)?([^/]+\/[^/]+)\//.exec(g.where)?.[1] ?? g.where;
  const f = folders.get(where) ?? { where, grew: 0, at: profiles.map(() => 0) };
  f.grew += g.grew;
  g.at.forEach((b, i) => (f.at[i] = (f.at[i] ?? 0) + b));
  folders.set(where, f);
}
process.stdout.write('by folder:\n');
for (const f of [...folders.values()].sort((a, b) => b.grew - a.grew).slice(0, rows)) process.stdout.write(line(f));
