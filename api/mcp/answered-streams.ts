import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/**
 * The SDK's transport keeps, per POST, a stream entry until the POST's answer is ready. In JSON
 * response mode (ours) the 1.x line hands the answer over but never drops that entry, and the
 * entry's closures hold the whole request (Fastify's request and reply, the body, the caller):
 * a session kept every request it ever answered until it closed, which is 30 idle minutes for
 * a client that never sends DELETE. Under the soak's MCP load that was most of its heap growth
 * (docs/soak.md). Upstream: modelcontextprotocol/typescript-sdk#2559 (fixed on `main`, not in a
 * 1.x release as of 1.32.2). Remove this once the SDK in use drops the entry itself: the test
 * beside it keeps passing then.
 */
interface StreamEntry {
  /** Present on JSON-mode entries only. */
  resolveJson?: unknown;
}

interface TransportInternals {
  _webStandardTransport?: {
    _streamMapping?: Map<string, StreamEntry>;
    _requestToStreamMapping?: Map<unknown, string>;
  };
}

function internals(transport: StreamableHTTPServerTransport): { streams: Map<string, StreamEntry>; pending: Map<unknown, string> } | null {
  const web = (transport as unknown as TransportInternals)._webStandardTransport;
  const streams = web?._streamMapping;
  const pending = web?._requestToStreamMapping;
  return streams instanceof Map && pending instanceof Map ? { streams, pending } : null;
}

/**
 * Drops the JSON-mode stream entries whose requests are all answered. A POST still being answered
 * keeps its entry: its request ids stay mapped to its stream until the answer is handed over
 * (the SDK maps them in the same turn it adds the entry), so concurrent POSTs of a session are
 * safe. Does nothing when the SDK's internals are not the ones this was written against.
 */
export function forgetAnsweredStreams(transport: StreamableHTTPServerTransport): void {
  const found = internals(transport);
  if (!found) return;
  const waiting = new Set(found.pending.values());
  for (const [id, entry] of found.streams) {
    if (entry.resolveJson !== undefined && !waiting.has(id)) found.streams.delete(id);
  }
}

/** JSON-mode stream entries the transport holds (null: unknown internals); for tests. */
export function jsonStreamEntries(transport: StreamableHTTPServerTransport): number | null {
  const found = internals(transport);
  if (!found) return null;
  let n = 0;
  for (const entry of found.streams.values()) if (entry.resolveJson !== undefined) n++;
  return n;
}
