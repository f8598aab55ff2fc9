import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyBaseLogger } from 'fastify';
import { ArgumentChecker } from './arguments.js';
import type { ToolCaller, ToolRefusal, ToolSpec } from './tool.js';

const INSTRUCTIONS =
  'Real-time sports odds from many sportsbooks and the betting opportunities derived from them. ' +
  'Find ids with get_sports, get_leagues, get_sportsbooks, get_markets and get_events; read prices with get_odds, get_best_odds, ' +
  'compare_odds, get_odds_batch and get_odds_delta; find +EV, arbitrage, middles and low-hold with the find_* tools; ' +
  'the devig_odds and calculate_* tools do the math on prices you give. Lists are paged: when a summary says more is available, ' +
  'call again with the offset (or cursor, or since) it names. Your API key decides the sportsbooks, data delay and features you get.';

/**
 * The tools, their compiled argument schemas and the list answer, built once per process and
 * shared by every session.
 */
export class ToolRegistry {
  private readonly byName = new Map<string, ToolSpec>();
  private readonly checker = new ArgumentChecker();
  readonly listing: Tool[];

  constructor(tools: readonly ToolSpec[]) {
    for (const t of tools) {
      this.byName.set(t.name, t);
      this.checker.add(t.name, t.inputSchema);
    }
    this.listing = tools.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema as Tool['inputSchema'],
      outputSchema: t.outputSchema as Tool['outputSchema'],
      annotations: { title: t.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    }));
  }

  get names(): string[] {
    return [...this.byName.keys()];
  }

  /** A tool's answer; an unknown tool is a protocol error, everything the tool refuses is a tool error. */
  async call(name: string, args: unknown, caller: ToolCaller, log: FastifyBaseLogger): Promise<CallToolResult> {
    const tool = this.byName.get(name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool '${name}'; tools/list names the ${this.byName.size} tools`);
    const checked = this.checker.check(name, args, caller.compile);
    if (!checked.ok) return toolError(checked.message);
    try {
      const outcome = await tool.run(checked.args, caller);
      if (!outcome.ok) return toolError(outcome.message, outcome.refusal);
      return { content: [{ type: 'text', text: outcome.summary }], structuredContent: outcome.structured };
    } catch (err) {
      log.error({ err, tool: name, keyId: caller.record.keyId }, 'mcp tool failed');
      return toolError(`The ${name} tool failed unexpectedly; it is logged, retry later`);
    }
  }
}

/** A tool error; a refusal's code and extras (`required_tier` on a tier gate) ride in `_meta.error`, which no output schema constrains. */
function toolError(message: string, refusal?: ToolRefusal): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true, ...(refusal ? { _meta: { error: refusal } } : {}) };
}

/**
 * One MCP server per session, on the official SDK. Tools are answered from the shared registry
 * through the SDK's request handlers rather than `registerTool`: the argument and output schemas
 * are the REST routes' JSON Schemas (not a Zod copy), and an unknown tool stays a JSON-RPC error.
 */
export function createMcpServer(registry: ToolRegistry, version: string, log: FastifyBaseLogger): McpServer {
  const mcp = new McpServer({ name: 'odds-platform', title: 'Odds platform', version }, { instructions: INSTRUCTIONS });
  mcp.server.registerCapabilities({ tools: { listChanged: false } });
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: registry.listing }));
  mcp.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const caller = extra.authInfo?.extra?.['caller'] as ToolCaller | undefined;
    if (!caller) throw new McpError(ErrorCode.InvalidRequest, 'Not authenticated');
    return registry.call(request.params.name, request.params.arguments, caller, log);
  });
  return mcp;
}
