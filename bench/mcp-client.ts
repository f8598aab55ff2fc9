/**
 * The client side of the MCP bench, in its own process so that client work does not share the
 * server's event loop: `node mcp-client.js <base url> <key> <calls>` prints the latencies (ms)
 * of REST GET /odds?limit=50 and of the MCP get_odds tool (limit 50), one request at a time.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

async function timed(n: number, once: () => Promise<void>): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await once();
    ms.push(performance.now() - t0);
  }
  return ms;
}

async function main(): Promise<void> {
  const [base, key, callsArg] = process.argv.slice(2);
  if (!base || !key) throw new Error('usage: mcp-client.js <base url> <key> <calls>');
  const calls = Number(callsArg ?? 400);
  const rest = async (): Promise<void> => {
    const res = await fetch(`${base}/api/v1/odds?limit=50`, { headers: { 'x-api-key': key } });
    const body = (await res.json()) as { data: unknown[] };
    if (body.data.length !== 50) throw new Error(`REST answered ${body.data.length} rows, not 50`);
  };
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/v1/mcp`), { requestInit: { headers: { 'x-api-key': key } } }));
  const tool = async (): Promise<void> => {
    const r = await client.callTool({ name: 'get_odds', arguments: { limit: 50 } });
    const rows = (r.structuredContent as { data?: unknown[] } | undefined)?.data?.length;
    if (r.isError || rows !== 50) throw new Error(`get_odds answered ${String(rows)} rows${r.isError ? ' (tool error)' : ''}`);
  };
  // Warm both paths (JIT, connection pools, compiled schemas), interleaved.
  for (let i = 0; i < 50; i++) {
    await rest();
    await tool();
  }
  const restMs = await timed(calls, rest);
  const mcpMs = await timed(calls, tool);
  await client.close();
  process.stdout.write(JSON.stringify({ rest: restMs, mcp: mcpMs }), () => process.exit(0));
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
