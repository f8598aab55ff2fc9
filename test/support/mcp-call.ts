import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * One MCP tool call as a client makes it: a session of its own with the key in the header, the
 * call, and the session ended, so a test's calls never share state through a session.
 */
export async function callMcpTool(baseUrl: string, key: string, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const client = new Client({ name: 'odds-e2e', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/api/v1/mcp`), { requestInit: { headers: { 'x-api-key': key } } }),
  );
  try {
    return (await client.callTool({ name, arguments: args })) as CallToolResult;
  } finally {
    await client.close();
  }
}
