import { Agent, request } from 'node:http';

/**
 * The reader side of the tick-to-visible bench, in its own process: polls one GET /odds query
 * back to back on one keep-alive connection and reports, for each price the watched row shows,
 * the wall time it was first seen, and the round trip of every poll.
 */
interface PollerInput {
  url: string;
  key: string;
  seconds: number;
  /** The watched row's id. */
  rowId: string;
}

export interface PollerResult {
  /** [price, epoch ms first seen], in order of sighting. */
  seen: [number, number][];
  roundTrips: number[];
}

const wall = (): number => performance.timeOrigin + performance.now();

function get(agent: Agent, url: URL, key: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      { agent, host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, headers: { 'x-api-key': key }, timeout: 30_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

async function poll(input: PollerInput): Promise<PollerResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(input.url);
  const deadline = performance.now() + input.seconds * 1000;
  const seen: [number, number][] = [];
  const roundTrips: number[] = [];
  let last: number | null = null;
  while (performance.now() < deadline) {
    const t0 = performance.now();
    const body = JSON.parse(await get(agent, url, input.key)) as { data: { id: string; odds_american: number }[] };
    const at = wall();
    roundTrips.push(performance.now() - t0);
    const row = body.data.find((r) => r.id === input.rowId);
    if (row && row.odds_american !== last) {
      last = row.odds_american;
      seen.push([row.odds_american, at]);
    }
  }
  agent.destroy();
  return { seen, roundTrips };
}

process.once('message', (input: PollerInput) => {
  void poll(input).then((result) => {
    process.send?.(result, () => process.exit(0));
  });
});
