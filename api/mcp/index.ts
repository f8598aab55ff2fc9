/** The MCP tool server: Streamable HTTP on the official SDK, tools answered by the query layer (api/queries) and the odds math. */
export { mcpRoutes } from './plugin.js';
export type { McpOptions } from './plugin.js';
export { RouteSchemas } from './route-schemas.js';
export { ToolRegistry } from './server.js';
export { QUERY_TOOLS } from './query-tools.js';
export type { QueryToolDef } from './query-tools.js';
export type { ToolSpec } from './tool.js';
export type { SessionLimits } from './sessions.js';
