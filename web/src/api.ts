import type { SessionInfo } from './responses.js';

/**
 * The page's only door to the API: same-origin fetches that carry the HttpOnly session cookie
 * (the page never sees the key), the envelope unwrapped, and the rate-limit headroom of the
 * last answer kept for the status bar.
 */
export type Row = Record<string, unknown>;

export interface Envelope<T> {
  data: T;
  meta?: Row;
}

export interface Headroom {
  limit: number;
  remaining: number;
  /** Epoch seconds when the window resets. */
  reset: number;
}

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** 403: the cheapest tier that would answer. */
    readonly requiredTier: string | null = null,
  ) {
    super(message);
  }
}

type HeadroomListener = (h: Headroom) => void;
const headroomListeners = new Set<HeadroomListener>();
let unauthorizedHandler: (() => void) | null = null;

export function onHeadroom(listener: HeadroomListener): () => void {
  headroomListeners.add(listener);
  return () => headroomListeners.delete(listener);
}

/** Called when an answer says the session is gone (expired, signed out elsewhere, key revoked). */
export function onUnauthorized(handler: () => void): void {
  unauthorizedHandler = handler;
}

export async function api<T>(path: string, init: RequestInit = {}): Promise<Envelope<T>> {
  const res = await fetch(`/api/v1${path}`, {
    ...init,
    credentials: 'same-origin',
    headers: { accept: 'application/json', ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers },
  });
  const limit = res.headers.get('x-ratelimit-limit');
  if (limit !== null) {
    const h: Headroom = {
      limit: Number(limit),
      remaining: Number(res.headers.get('x-ratelimit-remaining') ?? 0),
      reset: Number(res.headers.get('x-ratelimit-reset') ?? 0),
    };
    for (const l of headroomListeners) l(h);
  }
  const text = await res.text();
  let body: Row = {};
  try {
    body = text.length > 0 ? (JSON.parse(text) as Row) : {};
  } catch {
    body = {};
  }
  if (!res.ok) {
    const error = (body['error'] ?? {}) as Row;
    if (res.status === 401 && !path.startsWith('/session')) unauthorizedHandler?.();
    const requiredTier = error['required_tier'];
    throw new ApiFailure(
      res.status,
      String(error['code'] ?? 'error'),
      String(error['message'] ?? `HTTP ${res.status}`),
      typeof requiredTier === 'string' ? requiredTier : null,
    );
  }
  return { data: body['data'] as T, ...(body['meta'] ? { meta: body['meta'] as Row } : {}) };
}

export const session = {
  current: async (): Promise<SessionInfo | null> => {
    try {
      return (await api<SessionInfo>('/session')).data;
    } catch (e) {
      if (e instanceof ApiFailure && e.status === 401) return null;
      throw e;
    }
  },
  signIn: async (apiKey: string): Promise<SessionInfo> =>
    (await api<SessionInfo>('/session', { method: 'POST', body: JSON.stringify({ api_key: apiKey }) })).data,
  signOut: async (): Promise<void> => {
    await api('/session', { method: 'DELETE' });
  },
};
