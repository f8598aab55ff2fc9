import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

/**
 * A CPU profile of this process's JavaScript thread from now until the returned stop, written to
 * `file` (a no-op without one): the measured seconds only, without start-up and warm-up.
 * `node dist/bench/profile-top.js <file>` reads it.
 */
export function cpuProfile(file: string | undefined): () => Promise<void> {
  if (!file) return async () => undefined;
  const session = new Session();
  session.connect();
  session.post('Profiler.enable', () => session.post('Profiler.start'));
  return () =>
    new Promise<void>((resolve) => {
      session.post('Profiler.stop', (err, r) => {
        if (!err) writeFileSync(file, JSON.stringify(r.profile));
        session.disconnect();
        resolve();
      });
    });
}
