import { Agent, request } from 'node:http';

/**
 * A load generator in its own process (forked by the bench), so the load does not share the
 * server's event loop: `connections` keep-alive connections each send GET `path` back to back
 * until `seconds` pass, and with `probeHealth` one more connection polls `/health` every
 * 50 ms (enough samples for a p99 that is not just the maximum). The bench runs the prober as a process of its own: reading 200 connections' answers
 * lags the generator's own loop, which would be counted as /health's latency. A connection
 * answered 503 waits its Retry-After before the next request, as the reference SDK's retry
 * does (a client that ignores it turns shedding into a flood of refusals). Every answer's
 * status and latency is kept, so admitted and shed requests are told apart. Bounded: requests
 * time out after 30 s and the run ends at its deadline.
 */
interface WorkerInput {
  base: string;
  path: string;
  key: string;
  connections: number;
  seconds: number;
  probeHealth: boolean;
  /** A pause after each answer (ms), for a steady paced load rather than back to back (the soak); 0 when absent. */
  pauseMs?: number;
}

export interface WorkerResult {
  /** Latency (ms) of each answer by status. */
  byStatus: Record<string, number[]>;
  health: number[];
  failures: number;
  seconds: number;
}

function get(agent: Agent, url: URL, key: string): Promise<{ status: number; ms: number; retryAfter: number }> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const req = request(
      { agent, host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, headers: { 'x-api-key': key }, timeout: 30_000 },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0, retryAfter: Number(res.headers['retry-after'] ?? 0) }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0, ms: performance.now() - t0, retryAfter: 0 }));
    req.end();
  });
}

async function run(input: WorkerInput): Promise<WorkerResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: input.connections });
  const healthAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(`${input.base}${input.path}`);
  const healthUrl = new URL(`${input.base}/api/v1/health`);
  const deadline = performance.now() + input.seconds * 1000;
  const byStatus: Record<string, number[]> = Object.create(null) as Record<string, number[]>;
  const health: number[] = [];
  let failures = 0;
  const worker = async (): Promise<void> => {
    while (performance.now() < deadline) {
      const r = await get(agent, url, input.key);
      if (r.status === 0) failures++;
      (byStatus[String(r.status)] ??= []).push(r.ms);
      const wait = Math.min(r.retryAfter * 1000, deadline - performance.now());
      if (r.status === 503 && wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      else if (input.pauseMs)
        await new Promise((resolve) => setTimeout(resolve, Math.min(input.pauseMs ?? 0, deadline - performance.now())));
    }
  };
  const poller = async (): Promise<void> => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      const r = await get(healthAgent, healthUrl, input.key);
      if (r.status !== 0) health.push(r.ms);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 50 - (performance.now() - t0))));
    }
  };
  await Promise.all([...Array.from({ length: input.connections }, worker), ...(input.probeHealth ? [poller()] : [])]);
  agent.destroy();
  healthAgent.destroy();
  return { byStatus, health, failures, seconds: input.seconds };
}

process.once('message', (input: WorkerInput) => {
  void run(input).then((result) => {
    process.send?.(result, () => process.exit(0));
  });
});
