// PIPELINE_THREAD=worker runs the feed and the pipeline in a worker thread. A worker that ends
// (killed, crashed, out of memory) would leave the API thread serving the last board it was sent,
// with /health ok, for as long as the process lives. The API thread watches the worker: its end
// turns /health down naming it, and the entry is told to stop the process (it exits non-zero).
import { describe, expect, it } from 'vitest';
import { eventually } from '../test/support/replicas.js';
import { startTestSystem } from '../test/support/system.js';

describe('a pipeline worker that ends', () => {
  it('turns /health down naming the worker and tells the entry to stop the process', async () => {
    const fatal: string[] = [];
    const sys = await startTestSystem({ PIPELINE_THREAD: 'worker', FEED: 'none' }, { onFatal: (reason) => fatal.push(reason) });
    try {
      const before = await sys.get('/api/v1/health');
      expect(before.body['checks']).toMatchObject({ runtime: { status: 'ok', message: 'every stage running' } });
      expect(await sys.pipelineWorker?.terminate()).toBe(1);
      await eventually(() => fatal.length > 0, "the worker's end reported", 10_000);
      expect(fatal).toEqual(['pipeline worker exited (code 1)']);
      const after = await sys.get('/api/v1/health');
      expect(after.status).toBe(503);
      expect(after.body['status']).toBe('down');
      expect(after.body['checks']).toMatchObject({ runtime: { status: 'down', message: 'pipeline worker exited (code 1)' } });
    } finally {
      await sys.close();
    }
  }, 120_000);
});
