/**
 * The client side of the MCP bench, in its own process so that client work does not share the
 * server's event loop: `node mcp-client.js <base url> <key> <calls>` prints the latencies (ms)
 * of REST GET /odds?limit=50, of the MCP get_odds tool (limit 50) through the SDK client, and of
 * the same tools/call as a plain HTTP POST, one request at a time, the three interleaved. An
 * optional fourth argument pauses that many ms after each round of three (the soak's paced load).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { getJson } from './soak-http.js';

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
  const [base, key, callsArg, pauseArg] = process.argv.slice(2);
  if (!base || !key) throw new Error('usage: mcp-client.js <base url> <key> <calls> [pause ms]');
  const calls = Number(callsArg ?? 400);
  const pauseMs = Number(pauseArg ?? 0);
  const rest = async (): Promise<void> => {
    const body = (await getJson(`${base}/api/v1/odds?limit=50`, key)) as { data: unknown[] };
    if (body.data.length !== 50) throw new Error(`REST answered ${body.data.length} rows, not 50`);
  };
  // Connecting is shed like any call (initialize answered 503 on a loaded server): a fresh client
  // and transport per attempt, after a pause, as for the calls below.
  const connect = async (): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> => {
    for (let attempt = 0; ; attempt++) {
      const client = new Client({ name: 'bench', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(`${base}/api/v1/mcp`), {
        requestInit: { headers: { 'x-api-key': key } },
      });
      try {
        await client.connect(transport);
        return { client, transport };
      } catch (e) {
        if (attempt === 10 || (e as { code?: unknown }).code !== 503) throw e;
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  };
  const { client, transport } = await connect();
  // The same call as a plain HTTP client sends it (no SDK-side schema checks): the server's share.
  const rawHeaders = {
    'x-api-key': key,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-session-id': transport.sessionId ?? '',
    'mcp-protocol-version': transport.protocolVersion ?? '2025-03-26',
  };
  // Ids of its own, far from the SDK client's: a session's request ids must not collide.
  let rawId = 1_000_000;
  const raw = async (): Promise<void> => {
    const rawBody = JSON.stringify({
      jsonrpc: '2.0',
      id: rawId++,
      method: 'tools/call',
      params: { name: 'get_odds', arguments: { limit: 50 } },
    });
    let res = await fetch(`${base}/api/v1/mcp`, { method: 'POST', headers: rawHeaders, body: rawBody });
    // A shed request (503) waits its Retry-After and asks again, as a well-behaved client does.
    for (let attempt = 0; res.status === 503 && attempt < 10; attempt++) {
      await res.arrayBuffer();
      await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? 1) * 1000));
      res = await fetch(`${base}/api/v1/mcp`, { method: 'POST', headers: rawHeaders, body: rawBody });
    }
    const body = (await res.json()) as { result?: { structuredContent?: { data?: unknown[] } } };
    if (body.result?.structuredContent?.data?.length !== 50)
      throw new Error(`raw tools/call did not answer 50 rows: ${JSON.stringify(body).slice(0, 400)}`);
  };
  // The SDK throws on a shed request (its error's code is the HTTP status): wait and ask again.
  const callTool = async (): Promise<Awaited<ReturnType<Client['callTool']>>> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await client.callTool({ name: 'get_odds', arguments: { limit: 50 } });
      } catch (e) {
        if (attempt === 10 || (e as { code?: unknown }).code !== 503) throw e;
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  };
  const tool = async (): Promise<void> => {
    const r = await callTool();
    const rows = (r.structuredContent as { data?: unknown[] } | undefined)?.data?.length;
    if (r.isError || rows !== 50)
      throw new Error(
        `get_odds answered ${String(rows)} rows${r.isError ? ` (tool error: ${JSON.stringify(r.content).slice(0, 300)})` : ''}`,
      );
  };
  // Warm both paths (JIT, connection pools, compiled schemas), interleaved.
  for (let i = 0; i < 50; i++) {
    await rest();
    await tool();
    await raw();
  }
  // Interleaved, so that the machine's load at any moment weighs on the three alike.
  const restMs: number[] = [];
  const mcpMs: number[] = [];
  const rawMs: number[] = [];
  for (let i = 0; i < calls; i++) {
    restMs.push(...(await timed(1, rest)));
    mcpMs.push(...(await timed(1, tool)));
    rawMs.push(...(await timed(1, raw)));
    if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
  }
  // End the session on the server (DELETE), as a well-behaved client does: closing only the
  // client left each run's session open until the per-account cap evicted it, so a soak's
  // session count kept climbing for about 32 runs, well past its warm-up.
  await transport.terminateSession();
  await client.close();
  process.stdout.write(JSON.stringify({ rest: restMs, mcp: mcpMs, raw: rawMs }), () => process.exit(0));
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
