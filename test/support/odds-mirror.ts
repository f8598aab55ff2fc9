import { comparableRow } from './comparable-row.js';
import type { SseClient } from './stream-clients.js';

type Row = Record<string, unknown>;

/**
 * A GET with the key, its JSON body; a 429 or a 503 (a loaded machine's shedding) is asked again
 * after its Retry-After, a few times, and anything else but 200 fails with the body.
 */
export async function getJson(url: string, apiKey: string): Promise<Row> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(url, { headers: { 'x-api-key': apiKey } });
    const body = (await res.json()) as Row;
    if (res.status === 200) return body;
    if ((res.status !== 429 && res.status !== 503) || attempt >= 10) throw new Error(`GET ${url}: ${res.status} ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 1000 * Math.min(5, Number(res.headers.get('retry-after') ?? 1) || 1)));
  }
}

/** Every row of `/odds` on `base` as comparable text by id, and the snapshot's delta cursor. */
export async function oddsRows(base: string, apiKey: string): Promise<{ rows: Map<string, string>; cursor: string }> {
  const rows = new Map<string, string>();
  let page: string | null = null;
  let cursor = '';
  do {
    const body = await getJson(`${base}/api/v1/odds?limit=1000${page ? `&cursor=${encodeURIComponent(page)}` : ''}`, apiKey);
    if (cursor === '') cursor = (body['meta'] as Row)['delta_cursor'] as string;
    for (const row of body['data'] as Row[]) rows.set(row['id'] as string, comparableRow(row));
    page = (body['pagination'] as Row)['next_cursor'] as string | null;
  } while (page !== null);
  return { rows, cursor };
}

/** The ids a mirror holds differently from `truth` (at most five of each), and the sizes. */
export function mirrorDiff(
  mirror: ReadonlyMap<string, string>,
  truth: ReadonlyMap<string, string>,
): { missing: string[]; extra: string[]; size: number; expected: number } {
  const missing = [...truth.keys()].filter((id) => mirror.get(id) !== truth.get(id));
  const extra = [...mirror.keys()].filter((id) => !truth.has(id));
  return { missing: missing.slice(0, 5), extra: extra.slice(0, 5), size: mirror.size, expected: truth.size };
}

/** Resolves once the client got nothing new for `quietMs`. */
export async function quiet(client: SseClient, quietMs = 300): Promise<void> {
  let n = -1;
  while (n !== client.frames.length) {
    n = client.frames.length;
    await new Promise((resolve) => setTimeout(resolve, quietMs));
  }
}
