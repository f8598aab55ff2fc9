/**
 * The fields of odds rows that date them, read from a frame's text without parsing the rest.
 *
 * The subscriber process of the stream bench receives every frame of 2,000 subscribers on one
 * event loop. Parsing each whole frame (about 27 us for 6 rows of 1.2 KB) made the process spend
 * some 45 us per frame, so in a flush's burst of a few hundred frames the last ones waited
 * 10-15 ms in the process's own queue before they were timed: the bench measured its own
 * subscribers. A real subscriber parses only its own frames. These scans cost a few
 * microseconds, and `checkedTimedRows` compares them with a full parse for a sample of frames,
 * so a change of the row's presentation fails the bench instead of skewing it.
 */

/** The fields of an odds row that date it. */
export interface TimedRow {
  id?: string;
  timestamp?: string;
  is_active?: boolean;
  suspended_since?: string | null;
}

const ROW_START = '{"id":"';

/**
 * Rows in the order the presenter writes their fields (`id` first; `timestamp`, `is_active`,
 * `suspended_since` later, none of them in the nested references, which also start with `id`).
 * A row starts a JSON array or follows a comma; a nested reference follows a colon.
 */
export function scanTimedRows(text: string): TimedRow[] {
  const rows: TimedRow[] = [];
  let at = text.indexOf(ROW_START);
  while (at >= 0) {
    const before = text.charCodeAt(at - 1);
    if (before !== 0x5b /* [ */ && before !== 0x2c /* , */) {
      at = text.indexOf(ROW_START, at + ROW_START.length);
      continue;
    }
    const idStart = at + ROW_START.length;
    const idEnd = text.indexOf('"', idStart);
    const ts = stringField(text, '"timestamp":', idEnd);
    const active = text.indexOf('"is_active":', ts.end);
    const suspended = stringField(text, '"suspended_since":', active);
    if (idEnd < 0 || ts.end < 0 || active < 0 || suspended.end < 0) break;
    rows.push({
      id: text.slice(idStart, idEnd),
      timestamp: ts.value ?? undefined,
      is_active: text.charCodeAt(active + '"is_active":'.length) === 0x74 /* t */,
      suspended_since: suspended.value,
    });
    at = text.indexOf(ROW_START, suspended.end);
  }
  return rows;
}

/** A string-or-null field after `from`: its value, and where the scan goes on (-1 when absent). */
function stringField(text: string, name: string, from: number): { value: string | null; end: number } {
  if (from < 0) return { value: null, end: -1 };
  const at = text.indexOf(name, from);
  if (at < 0) return { value: null, end: -1 };
  const start = at + name.length;
  if (text.charCodeAt(start) !== 0x22 /* " */) return { value: null, end: start };
  const end = text.indexOf('"', start + 1);
  return { value: text.slice(start + 1, end), end };
}

/** The WebSocket message's `type`, which the server writes before the rows. */
export function messageType(text: string): string {
  return stringField(text, '"type":', 0).value ?? '';
}

let checked = 0;

/**
 * `scanTimedRows`, compared with a full parse for one frame in `every` (and the first 100): a
 * difference throws, naming the frame, since it would mean the scan no longer reads what the
 * server sends.
 */
export function checkedTimedRows(text: string, parsedRows: (parsed: unknown) => TimedRow[] | undefined, every = 200): TimedRow[] {
  const rows = scanTimedRows(text);
  if (checked++ < 100 || checked % every === 0) {
    const expected = (parsedRows(JSON.parse(text)) ?? []).map((r) => ({
      id: r.id,
      timestamp: r.timestamp,
      is_active: r.is_active,
      suspended_since: r.suspended_since,
    }));
    if (JSON.stringify(expected) !== JSON.stringify(rows)) {
      throw new Error(
        `frame scan disagrees with JSON.parse: ${JSON.stringify(rows).slice(0, 300)} against ${JSON.stringify(expected).slice(0, 300)} in ${text.slice(0, 300)}`,
      );
    }
  }
  return rows;
}
