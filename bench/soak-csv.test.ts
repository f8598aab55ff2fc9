import { describe, expect, it } from 'vitest';
import { readSoakCsv, soakCsv } from './soak-csv.js';
import { steadySample } from './soak-sample-fixture.js';

describe("the soak's CSV", () => {
  it('reads back what it wrote, the forced-GC reading only where it was taken', () => {
    const samples = [
      steadySample(10, { heapForcedGcBytes: 250e6, eventLoopP99Ms: 23.5, boardRows: 45_708, boardRowsTakenIn: 45_708 }),
      steadySample(20, { streamLagP99Ms: Number.NaN, boardRows: 45_706, boardRowsTakenIn: 45_861 }),
    ];
    expect(readSoakCsv(soakCsv(samples))).toStrictEqual(samples);
  });

  it('reads a run written before board_rows_taken_in existed, with that column missing rather than zero', () => {
    const old = [
      't_seconds,rss_bytes,heap_used_bytes,heap_after_gc_bytes,external_bytes,open_fds,event_loop_p99_ms,stream_lag_p99_ms,store_parts,pipeline_lag_records,thread_proc_fds,threads,board_rows,board_events,heap_after_forced_gc_bytes',
      '15,936996864,343246592,210994512,43239445,470,85.3,,54,2651,45,34,45708,230,224404856',
    ].join('\n');
    const [sample] = readSoakCsv(old);
    expect(sample?.heapForcedGcBytes).toBe(224404856);
    expect(sample?.streamLagP99Ms).toBeNaN();
    expect(sample?.boardRowsTakenIn).toBeNaN();
  });

  it('names a required column that is missing', () => {
    expect(() => readSoakCsv('t_seconds,rss_bytes\n10,1')).toThrow('the soak CSV has no column heap_used_bytes');
  });
});
