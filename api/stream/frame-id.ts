import { decodePosition } from '../queries/index.js';
import type { LogPosition } from '../queries/index.js';

/**
 * A stream frame's SSE id: its sequence number, and for a subscription that follows the log, the
 * hub run that numbered it and the subscriber's position in the log (`<seq>.<run>.<position>`).
 * The number resumes from that run's replay window only; the position (the delta cursor's
 * encoding, `log-position.ts`) on any replica of the same log, and after a restart.
 */
export function frameId(seq: number, run: string, position: string | null): string {
  return position === null ? String(seq) : `${seq}.${run}.${position}`;
}

/** Where a `Last-Event-ID` says its client stands: the sequence number when `run` gave it, and the log position when it names one. */
export interface ResumePoint {
  seq: number | null;
  position: LogPosition | null;
}

/** Null for text that is no id of ours (any text at all may come in: it then resyncs). */
export function parseFrameId(text: string, run: string): ResumePoint | null {
  const id = text.trim();
  if (/^\d{1,16}$/.test(id)) return { seq: Number(id), position: null };
  const m = /^(\d{1,16})\.([A-Za-z0-9_-]{1,32})\.([A-Za-z0-9_-]+)$/.exec(id);
  if (!m) return null;
  const position = decodePosition(m[3] as string);
  return { seq: m[2] === run ? Number(m[1]) : null, position };
}
