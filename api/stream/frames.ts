/**
 * A frame is serialized and encoded once and its bytes shared by every connection that gets it:
 * SSE connections write the same Buffer; WebSocket connections share the encoded message body and
 * add only their own `seq` in front (COMPAT: a per-connection counter), so no connection
 * re-encodes the rows.
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
  readonly seq: number;
  /** Its SSE id (the sequence number, and for some subscriptions a log position: `StreamHub.frameId`). */
  readonly id: string;
  /** SSE: `id:`, `event:`, `data:` lines and the blank line. */
  readonly sse: Buffer;
  /** WebSocket: the message from its first field on, UTF-8; a connection writes `{"seq":n,` in front. */
  readonly wsTail: Buffer;
}

/**
 * A frame as the replay window keeps it: the payload's strings as the source built them, and the
 * head fields. Kept as bytes, every frame would be a Buffer outside the V8 heap that lives as long
 * as the window (minutes), and V8 starts a full mark of the heap whenever memory held outside it
 * has grown by 64 MB since the last one: at 1,000 + 1,000 subscribers that was a major GC every
 * 15-20 s, each a 300-450 ms stall. As strings the same characters count towards the heap's own,
 * proportional limit, and marking a string costs the same whatever its length.
 *
 * Not the frame's text either: encoding a string makes V8 flatten it in place, so a kept SSE text
 * and a kept WebSocket text would each end up holding a flat copy of the rows, where the payload's
 * two forms share one string of rows. `encode` builds the text around the payload afresh, and
 * the flat copy it encodes is young garbage.
 */
export interface FrameText {
  seq: number;
  id: string;
  payload: FramePayload;
  timestamp: string;
}

export function frameText(id: string, globalSeq: number, payload: FramePayload, timestamp: string): FrameText {
  return { seq: globalSeq, id, payload, timestamp };
}

/**
 * The characters a kept frame stands for: its SSE text. The WebSocket form shares the payload's
 * strings (the rows, or the JSON it is a slice of), so counting it too would count them twice.
 */
export function frameChars(f: FrameText): number {
  return f.id.length + f.payload.name.length + f.payload.sse.length + SSE_HEAD_CHARS;
}

/** `id: `, `\nevent: `, `\ndata: ` and the blank line's `\n\n`. */
const SSE_HEAD_CHARS = 4 + 8 + 7 + 2;

/**
 * The bytes of a frame, each form encoded once for every connection that gets it, and only when
 * a connection of that kind asks: a group of SSE subscribers never pays for the WebSocket bytes,
 * nor an SSE snapshot chunk for its WebSocket twin.
 */
class EncodedFrame implements Rendered {
  private sseBytes: Buffer | null = null;
  private wsBytes: Buffer | null = null;

  constructor(private readonly text: FrameText) {}

  get seq(): number {
    return this.text.seq;
  }

  get id(): string {
    return this.text.id;
  }

  get sse(): Buffer {
    if (this.sseBytes === null) {
      const f = this.text;
      this.sseBytes = Buffer.from(`id: ${f.id}\nevent: ${f.payload.name}\ndata: ${f.payload.sse}\n\n`);
    }
    return this.sseBytes;
  }

  get wsTail(): Buffer {
    if (this.wsBytes === null) {
      const f = this.text;
      const p = f.payload;
      this.wsBytes = Buffer.from(
        `"type":${JSON.stringify(p.name)}${p.ws.length > 0 ? `,${p.ws}` : ''},"global_seq":${f.seq},"timestamp":"${f.timestamp}"}`,
      );
    }
    return this.wsBytes;
  }
}

export function encode(f: FrameText): Rendered {
  return new EncodedFrame(f);
}

export function render(id: string, globalSeq: number, p: FramePayload, timestamp: string): Rendered {
  return encode(frameText(id, globalSeq, p, timestamp));
}

/** A payload whose SSE data and WebSocket fields are the same object. */
export function payload(name: string, fields: Record<string, unknown>): FramePayload {
  const json = JSON.stringify(fields);
  return { name, sse: json, ws: json.length > 2 ? json.slice(1, -1) : '' };
}

/**
 * One connection's copy of a shared frame: its own `seq` head, then the shared body copied in
 * (a memcpy; building a string per connection flattened, measured and encoded the rows each time).
 */
export function wsMessage(seq: number, tail: Buffer, replay = false): Buffer {
  const head = replay ? `{"seq":${seq},"replay":true,` : `{"seq":${seq},`;
  const out = Buffer.allocUnsafe(head.length + tail.length);
  out.write(head, 0, 'latin1');
  tail.copy(out, head.length);
  return out;
}

/** A JSON array from already serialized items. */
export function jsonArray(items: readonly string[]): string {
  return `[${items.join(',')}]`;
}
