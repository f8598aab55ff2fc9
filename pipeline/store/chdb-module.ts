import { createRequire } from 'node:module';
import type * as Chdb from 'chdb';

let loaded: typeof Chdb | null = null;

/**
 * chDB, loaded at the first session instead of on import. Importing the sinks imports this
 * component (for `StoreError`), and the pipeline worker of PIPELINE_THREAD=worker imports the
 * sinks: loading the engine's native library there too, beside the API thread's session, left the
 * process's session unable to close (a stop hung in it). The engine runs on the API thread only.
 */
export function chdb(): typeof Chdb {
  loaded ??= createRequire(import.meta.url)('chdb') as typeof Chdb;
  return loaded;
}
