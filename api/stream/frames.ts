/**
 * A frame is serialized once and its bytes shared by every connection that gets it: SSE
 * connections write the same Buffer; WebSocket connections share the message body and add only
 * their own `seq` in front (COMPAT: a per-connection counter).
 */
export interface FramePayload {
  /** The SSE `event:` name, and the WebSocket `type`. */
  name: string;
  /** The SSE `data:` JSON. */
  sse: string;
  /** The WebSocket message fields besides type, seq, global_seq and timestamp, as a JSON fragment (no braces); may be empty. */
  ws: string;
}

export interface Rendered {
  /** The sequence number (resume point) this frame stands at. */
  seq: number;
  /** SSE: `id:`, `event:`, `data:` lines and the blank line. */
  sse: Buffer;
  /** WebSocket: the message from its first field on; a connection writes `{"seq":n,` in front. */
  wsTail: string;
}

export function render(id: string, globalSeq: number, p: FramePayload, timestamp: string): Rendered {
  return {
    seq: globalSeq,
    sse: Buffer.from(`id: ${id}\nevent: ${p.name}\ndata: ${p.sse}\n\n`),
    wsTail: `"type":${JSON.stringify(p.name)}${p.ws.length > 0 ? `,${p.ws}` : ''},"global_seq":${globalSeq},"timestamp":"${timestamp}"}`,
  };
}

/** A payload whose SSE data and WebSocket fields are the same object. */
export function payload(name: string, fields: Record<string, unknown>): FramePayload {
  const json = JSON.stringify(fields);
  return { name, sse: json, ws: json.length > 2 ? json.slice(1, -1) : '' };
}

export function wsMessage(seq: number, tail: string, replay = false): string {
  return `{"seq":${seq},${replay ? '"replay":true,' : ''}${tail}`;
}

/** A JSON array from already serialized items. */
export function jsonArray(items: readonly string[]): string {
  return `[${items.join(',')}]`;
}
