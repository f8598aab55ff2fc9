import { Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import type { PipelineStats } from './pipeline.js';

/**
 * The pipeline's counters as gauges on `registry`, read from `stats()` at scrape time, so
 * nothing is counted twice and the hot paths pay nothing. Every process that runs a pipeline uses it.
 */
export function registerPipelineMetrics(registry: Registry, stats: () => PipelineStats): void {
  new Gauge({
    name: 'odds_normalizer_matched_ticks',
    help: 'Raw ticks mapped onto canonical events since start.',
    registers: [registry],
    collect() {
      this.set(stats().normalizer.matched);
    },
  });
  new Gauge({
    name: 'odds_normalizer_unmatched_ticks',
    help: 'Raw ticks the normalizer could not map since start, by reason.',
    labelNames: ['reason'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [reason, n] of Object.entries(stats().normalizer.unmatched)) this.set({ reason }, n ?? 0);
    },
  });
  new Gauge({
    name: 'odds_normalizer_events',
    help: 'Canonical events the normalizer tracks.',
    registers: [registry],
    collect() {
      this.set(stats().normalizer.events);
    },
  });
  new Gauge({
    name: 'odds_opportunities_active',
    help: 'Active opportunities of all kinds.',
    registers: [registry],
    collect() {
      this.set(stats().opportunities.active);
    },
  });
  new Gauge({
    name: 'odds_sink_rows',
    help: 'Rows the ClickHouse sinks wrote, or dropped after retries, since start, by table.',
    labelNames: ['table', 'outcome'],
    registers: [registry],
    collect() {
      for (const [table, c] of Object.entries(stats().sinks)) {
        this.set({ table, outcome: 'written' }, c.rowsWritten);
        this.set({ table, outcome: 'dropped' }, c.rowsFailed);
      }
    },
  });
  new Gauge({
    name: 'odds_stage_lag_records',
    help: 'Records produced but not yet committed, by pipeline stage.',
    labelNames: ['stage'],
    registers: [registry],
    collect() {
      for (const [stage, lag] of Object.entries(stats().lag)) this.set({ stage }, lag);
    },
  });
}
