import type { ErrorExtras } from '../errors.js';
import type { AuthenticatedKey } from '../accounts/index.js';
import type { JsonSchema } from './route-schemas.js';
import type { SchemaCompiler } from './arguments.js';

/**
 * Who a tool answers: the key's record (tier, id; never the key itself) and the rate-limit
 * headers of the `/mcp` request that carried the call, which the auth hook counted once.
 */
export interface ToolCaller {
  record: AuthenticatedKey;
  headers: Record<string, string>;
  /** The app's validator compiler, through the request, for the tool's arguments. */
  compile: SchemaCompiler;
}

/** A refusal's machine-readable part (`code`, and on a tier gate `tier` and `required_tier`), as REST puts it in `error`. */
export type ToolRefusal = { code: string } & ErrorExtras;
export type ToolOutcome =
  { ok: true; structured: Record<string, unknown>; summary: string } | { ok: false; message: string; refusal?: ToolRefusal };

/** One MCP tool: its contract (name, schemas, description) and how it answers. */
export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  run(args: Record<string, unknown>, caller: ToolCaller): Promise<ToolOutcome>;
}
