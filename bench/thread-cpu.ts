import { readFileSync, readdirSync } from 'node:fs';

/**
 * CPU seconds of this process by thread name (Linux; empty elsewhere). `process.cpuUsage()` adds
 * every thread: the JavaScript thread, V8's GC helpers, libuv's pool and chDB's own threads. A
 * CPU profile sees only the first, so the bench splits the total this way to say which to read.
 */
export function cpuByThread(): Map<string, number> {
  const out = new Map<string, number>();
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // The name is in parentheses and may hold spaces; utime and stime are fields 14 and 15, in
      // clock ticks (100 per second on Linux).
      const close = stat.lastIndexOf(')');
      const name = tid === String(process.pid) ? 'main (JavaScript)' : threadGroup(stat.slice(stat.indexOf('(') + 1, close));
      const fields = stat.slice(close + 2).split(' ');
      out.set(name, (out.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

/** Threads of one pool share a name up to a number (`libuv-worker`, ClickHouse's `QueryPipelineEx`...). */
function threadGroup(name: string): string {
  return name.replace(/[\d:/-]+$/, '') || name;
}

/** What each thread group spent between two readings, largest first. */
export function cpuSince(before: Map<string, number>, after: Map<string, number>): [string, number][] {
  return [...after]
    .map(([name, s]): [string, number] => [name, s - (before.get(name) ?? 0)])
    .filter(([, s]) => s > 0)
    .sort((a, b) => b[1] - a[1]);
}
