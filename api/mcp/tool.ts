import type { Admitted } from '../plugins/auth.js';
import type { JsonSchema } from './route-schemas.js';

/** What a tool is given besides its arguments: the caller's key record (never the key) and its rate-limit headers. */
export type ToolContext = Admitted;

export type ToolOutcome =
  | { ok: true; structured: Record<string, unknown>; summary: string }
  | { ok: false; message: string };

/** One MCP tool: its contract (name, schemas, description) and how it answers. */
export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  run(args: Record<string, unknown>, context: ToolContext): Promise<ToolOutcome>;
}
