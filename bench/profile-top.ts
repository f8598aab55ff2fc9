import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The top functions of a V8 CPU profile (`node --cpu-prof`), by self time and by inclusive time:
 * `node dist/bench/profile-top.js <file.cpuprofile | directory> [rows]`. A directory means its
 * newest profile. This is how docs/performance-pipeline.md's profile tables were read. A sampling
 * heap profile (the stream bench's `BENCH_STREAM_HEAP`) prints its bytes by allocating function
 * and by the allocation's last three frames.
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function newest(dir: string): string {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => join(dir, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  const file = files[0];
  if (file === undefined) throw new Error(`no .cpuprofile in ${dir}`);
  return file;
}

interface HeapProfileNode {
  callFrame: ProfileNode['callFrame'];
  selfSize: number;
  children: HeapProfileNode[];
}

function frameName(f: ProfileNode['callFrame']): string {
  return `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/dist\//, '')}:${f.lineNumber + 1}`;
}

function printTop(title: string, m: Map<string, number>, total: number, rows: number, unit: (x: number) => string): void {
  process.stdout.write(`${title}\n`);
  for (const [k, t] of [...m].sort((a, b) => b[1] - a[1]).slice(0, rows))
    process.stdout.write(`${((t / total) * 100).toFixed(1).padStart(6)} % ${unit(t).padStart(9)}  ${k}\n`);
}

function heapTop(file: string, head: HeapProfileNode, rows: number): void {
  const self = new Map<string, number>();
  const stacks = new Map<string, number>();
  let total = 0;
  const walk = (n: HeapProfileNode, path: string[]): void => {
    const here = [...path, frameName(n.callFrame)].slice(-3);
    if (n.selfSize > 0) {
      total += n.selfSize;
      const name = here[here.length - 1] as string;
      self.set(name, (self.get(name) ?? 0) + n.selfSize);
      const stack = [...here].reverse().join(' < ');
      stacks.set(stack, (stacks.get(stack) ?? 0) + n.selfSize);
    }
    for (const c of n.children) walk(c, here);
  };
  walk(head, []);
  const mb = (x: number): string => `${(x / 1e6).toFixed(1)} MB`;
  process.stdout.write(`${file}: ${mb(total)} sampled\n`);
  printTop('by allocating function', self, total, rows, mb);
  printTop('by allocation site (function < caller < caller)', stacks, total, rows, mb);
}

function main(): void {
  const target = process.argv[2];
  if (target === undefined) throw new Error('usage: profile-top <file.cpuprofile | directory> [rows]');
  const rows = Number(process.argv[3] ?? 25);
  const file = statSync(target).isDirectory() ? newest(target) : target;
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as Profile | { head: HeapProfileNode };
  if ('head' in parsed) {
    heapTop(file, parsed.head, rows);
    return;
  }
  const profile = parsed;
  const time = new Map<number, number>();
  profile.samples.forEach((id, i) => time.set(id, (time.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (n: ProfileNode): string => frameName(n.callFrame);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  for (const n of profile.nodes) {
    const t = time.get(n.id) ?? 0;
    if (t === 0) continue;
    total += t;
    self.set(name(n), (self.get(name(n)) ?? 0) + t);
    // Each function once per stack, however deep its recursion.
    const seen = new Set<string>();
    for (let id: number | undefined = n.id; id !== undefined; id = parent.get(id)) {
      const node = byId.get(id);
      if (!node) break;
      const k = name(node);
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + t);
    }
  }
  const ms = (t: number): string => `${(t / 1000).toFixed(0)} ms`;
  process.stdout.write(`${file}: ${(total / 1e6).toFixed(1)} s sampled\n`);
  printTop('self time', self, total, rows, ms);
  printTop('inclusive time', inclusive, total, rows, ms);
}

main();
