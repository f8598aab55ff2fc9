import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// Memory tests force full collections to see what is still reachable. The flag has to be set
// before a new context is made; the context's `gc` is then V8's.
setFlagsFromString('--expose-gc');

/** A full, synchronous garbage collection. */
export const gc = runInNewContext('gc') as () => void;

/** Heap in use after two full collections (the second frees what the first only finalized). */
export function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}
