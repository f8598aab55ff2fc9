/**
 * A position on a change log's time axis: epoch milliseconds plus a tie-breaker that orders the
 * changes applied within one millisecond (1 to 999 999). Written as an RFC 3339 time with nine
 * fractional digits, the last six being the tie-breaker, so `next_since` is still a plain
 * date-time a client can read, and passing it back verbatim names one exact point in the log.
 * A time a client writes itself (`...:00Z`, `...:00.250Z`) has tie-breaker 0: it sits before
 * every change of its millisecond.
 */
export interface LogTime {
  ms: number;
  sub: number;
}

export const SUBS_PER_MS = 1_000_000;

export function compareLogTime(a: LogTime, b: LogTime): number {
  return a.ms - b.ms || a.sub - b.sub;
}

export function maxLogTime(a: LogTime, b: LogTime): LogTime {
  return compareLogTime(a, b) >= 0 ? a : b;
}

/** `2026-05-01T18:30:00.123000042Z` */
export function formatLogTime(t: LogTime): string {
  const iso = new Date(t.ms).toISOString();
  return `${iso.slice(0, -1)}${String(t.sub).padStart(6, '0')}Z`;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)$/;

/**
 * Parses an RFC 3339 date-time (what the route schema's `date-time` format admits: `T` or `t`,
 * `Z` or an offset of `+hh`, `+hhmm` or `+hh:mm`, any number of fractional digits). Null when
 * the text is not one or names no real instant.
 */
export function parseLogTime(text: string): LogTime | null {
  const m = RFC3339.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return null;
  const offH = Number(m[10] ?? 0);
  const offM = Number(m[11] ?? 0);
  if (offH > 23 || offM > 59) return null;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCDate() !== day) return null; // 2026-02-30
  date.setUTCHours(hour, minute, second, 0);
  const sign = m[9] === '-' ? -1 : 1;
  const offsetMs = m[8] ? 0 : sign * (offH * 60 + offM) * 60_000;
  const fraction = (m[7] ?? '').padEnd(9, '0');
  const ms = date.getTime() - offsetMs + Number(fraction.slice(0, 3));
  if (!Number.isFinite(ms)) return null;
  return { ms, sub: Number(fraction.slice(3, 9)) };
}
