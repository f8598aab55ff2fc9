/**
 * The chaos run's session check (issue 36: sessions across two API replicas without
 * stickiness): with REDIS_URL, a browser signed in on one replica uses its cookie on the other,
 * and revoking the key behind it ends its sessions, and the streams they opened, on both
 * replicas within a second. One line for the table: what held, or what did not.
 */
import { SseClient } from '../test/support/stream-clients.js';

type Row = Record<string, unknown>;

/** How long a revocation may take to end the key's sessions everywhere. */
const REVOKED_WITHIN_MS = 1000;

async function call(
  base: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<{ status: number; body: Row; cookie: string }> {
  const res = await fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: { ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    signal: AbortSignal.timeout(20_000),
  });
  const body = (await res.json().catch(() => ({}))) as Row;
  return { status: res.status, body, cookie: (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '' };
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
    throw new Error(`no key made on ${a.name}: ${made.status} ${JSON.stringify(made.body).slice(0, 200)}`);
  // The new key reaches the other replica through the accounts topic.
  if (
    !(await eventually(async () => (await call(b.url, '/api/v1/sportsbooks', { headers: { 'x-api-key': secret } })).status === 200, 30_000))
  )
    throw new Error(`the new key never worked on ${b.name}`);
  const signIn = await call(a.url, '/api/v1/session', { method: 'POST', headers: { origin: a.url }, body: { api_key: secret } });
  if (signIn.status !== 200 || signIn.cookie === '') throw new Error(`sign-in on ${a.name} answered ${signIn.status}`);
  const cookie = signIn.cookie;
  const onB = await call(b.url, '/api/v1/session', { headers: { cookie } });
  if (onB.status !== 200) throw new Error(`the cookie signed in on ${a.name} is ${onB.status} on ${b.name}: sessions are not shared`);
  const streams = await Promise.all([a, b].map((r) => SseClient.open(`${r.url}/api/v1/stream/odds?league=nba`, { cookie })));
  for (const [i, s] of streams.entries()) {
    if (s.status !== 200) throw new Error(`a stream with the cookie on ${[a, b][i]?.name} answered ${s.status}`);
    await s.until((f) => f.some((x) => x.event === 'snapshot:complete' || x.event === 'connected'), 30_000);
  }
  const at = Date.now();
  const revoked = await call(a.url, `/api/v1/account/keys/${keyId}`, { method: 'DELETE', headers: { 'x-api-key': ownerKey } });
  const answeredIn = Date.now() - at;
  if (revoked.status !== 200) throw new Error(`revoking on ${a.name} answered ${revoked.status}`);
  const endedIn = await Promise.all(streams.map(async (s) => ((await eventually(async () => s.ended, 5000)) ? Date.now() - at : null)));
  const refused = await Promise.all([a, b].map(async (r) => (await call(r.url, '/api/v1/session', { headers: { cookie } })).status));
  for (const s of streams) s.close();
  const [endA = null, endB = null] = endedIn;
  const timing = `streams ended on ${a.name} in ${endA ?? 'never'} ms, on ${b.name} in ${endB ?? 'never'} ms from the revocation's request (answered in ${answeredIn} ms); session then ${refused.join('/')}`;
  if (endA === null || endB === null || endA > REVOKED_WITHIN_MS || endB > REVOKED_WITHIN_MS || refused.some((s) => s !== 401))
    throw new Error(`revocation did not end the sessions on both replicas within ${REVOKED_WITHIN_MS} ms: ${timing}`);
  return `signed in on ${a.name}, used on ${b.name}; key revoked: ${timing}`;
}
