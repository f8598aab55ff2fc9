/**
 * The chaos run's session check (issue 36: sessions across two API replicas without
 * stickiness): with REDIS_URL, a browser signed in on one replica uses its cookie on the other,
 * and revoking the key behind it ends its sessions, and the streams they opened, on both
 * replicas within a second of the revocation's answer (docs/api.md: the revocation is in force
 * once answered; the replica that answers ends them before it answers). One line for the table:
 * what held, or what did not, with any failed answer's status, headers and body.
 */
import { SseClient } from '../test/support/stream-clients.js';

type Row = Record<string, unknown>;

/** How long after the revocation's answer its key's sessions and streams may last on any replica. */
const REVOKED_WITHIN_MS = 1000;

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: Row;
  cookie: string;
}

/**
 * An answer as one line for a failure: its status, its headers (Retry-After among them, when a
 * 503 is shedding or the store is down) and the start of its body. A cookie is never printed.
 */
export function answerLine(a: Pick<Answer, 'status' | 'headers' | 'text'>): string {
  const headers = [...a.headers]
    .filter(([name]) => name !== 'set-cookie')
    .map(([name, value]) => `${name}: ${value}`)
    .join('; ');
  return `${a.status} [${headers}] ${a.text.slice(0, 400)}`;
}

async function call(
  base: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: { ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text().catch(() => '');
  let body: Row = {};
  try {
    body = JSON.parse(text) as Row;
  } catch {
    // not JSON: kept as text for the failure line
  }
  return { status: res.status, headers: res.headers, text, body, cookie: (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '' };
}

/** How long after `answeredAt` something happened at `at`, as the table says it. */
function sinceAnswer(at: number | null, answeredAt: number): string {
  if (at === null) return 'never';
  return at <= answeredAt ? `before the answer` : `${at - answeredAt} ms after the answer`;
}

async function eventually(what: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await what()) return true;
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Makes a key with `ownerKey` on replica `a`, signs a browser in with it on `a`, uses the cookie
 * on `b` (a session and a stream on each), revokes the key on `a`, and times how long each
 * replica takes to end the streams and refuse the cookie. Resolves with what held; rejects with
 * what did not.
 */
export async function sessionsAcrossReplicas(
  a: { name: string; url: string },
  b: { name: string; url: string },
  ownerKey: string,
): Promise<string> {
  const made = await call(a.url, '/api/v1/account/keys', {
    method: 'POST',
    headers: { 'x-api-key': ownerKey },
    body: { name: 'chaos session' },
  });
  const data = made.body['data'] as Row | undefined;
  const secret = data?.['key'];
  const keyId = data?.['id'];
  if (made.status !== 201 || typeof secret !== 'string' || typeof keyId !== 'string')
    throw new Error(`no key made on ${a.name}: ${answerLine(made)}`);
  // The new key reaches the other replica through the accounts topic.
  if (
    !(await eventually(async () => (await call(b.url, '/api/v1/sportsbooks', { headers: { 'x-api-key': secret } })).status === 200, 30_000))
  )
    throw new Error(`the new key never worked on ${b.name}`);
  const signIn = await call(a.url, '/api/v1/session', { method: 'POST', headers: { origin: a.url }, body: { api_key: secret } });
  if (signIn.status !== 200 || signIn.cookie === '') throw new Error(`sign-in on ${a.name} answered ${answerLine(signIn)}`);
  const cookie = signIn.cookie;
  const onB = await call(b.url, '/api/v1/session', { headers: { cookie } });
  if (onB.status !== 200) throw new Error(`the cookie signed in on ${a.name} is ${answerLine(onB)} on ${b.name}: sessions are not shared`);
  const streams = await Promise.all([a, b].map((r) => SseClient.open(`${r.url}/api/v1/stream/odds?league=nba`, { cookie })));
  for (const [i, s] of streams.entries()) {
    if (s.status !== 200) throw new Error(`a stream with the cookie on ${[a, b][i]?.name} answered ${s.status}`);
    await s.until((f) => f.some((x) => x.event === 'snapshot:complete' || x.event === 'connected'), 30_000);
  }
  // The moment each stream is told its key was revoked (its `error` frame) is when that replica
  // ended it; the bound counts from the revocation's answer, when the revocation is in force.
  const cutAt: (number | null)[] = [null, null];
  const cuts = streams.map((s, i) =>
    // Bounded by the request's own timeout (20 s) and 5 s after it: a cut later than a second fails anyway.
    s
      .until((f) => f.some((x) => x.event === 'error'), 25_000)
      .then(
        () => {
          cutAt[i] = Date.now();
        },
        () => undefined,
      ),
  );
  const requestedAt = Date.now();
  const revoked = await call(a.url, `/api/v1/account/keys/${keyId}`, { method: 'DELETE', headers: { 'x-api-key': ownerKey } });
  const answeredAt = Date.now();
  if (revoked.status !== 200) {
    for (const s of streams) s.close();
    throw new Error(`revoking on ${a.name} answered ${answerLine(revoked)} after ${answeredAt - requestedAt} ms`);
  }
  await Promise.all(cuts);
  const refused = await Promise.all([a, b].map((r) => call(r.url, '/api/v1/session', { headers: { cookie } })));
  for (const s of streams) s.close();
  const codes = streams.map((s) => {
    const data = s.frames.find((x) => x.event === 'error')?.data as Row | undefined;
    return data?.['code'];
  });
  const [cutA = null, cutB = null] = cutAt;
  const timing = `streams ended on ${a.name} ${sinceAnswer(cutA, answeredAt)}, on ${b.name} ${sinceAnswer(cutB, answeredAt)} (the revocation answered in ${answeredAt - requestedAt} ms; error codes ${codes.map(String).join('/')}); session then ${refused.map((r) => r.status).join('/')}`;
  const late = (at: number | null): boolean => at === null || at - answeredAt > REVOKED_WITHIN_MS;
  const notRefused = refused.filter((r) => r.status !== 401);
  if (late(cutA) || late(cutB) || codes.some((c) => c !== 'key_revoked') || notRefused.length > 0)
    throw new Error(
      `revocation did not end the sessions on both replicas within ${REVOKED_WITHIN_MS} ms of its answer: ${timing}${notRefused.map((r) => `; a session answered ${answerLine(r)}`).join('')}`,
    );
  return `signed in on ${a.name}, used on ${b.name}; key revoked: ${timing}`;
}
