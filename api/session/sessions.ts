import { createHash, randomBytes, randomUUID } from 'node:crypto';

/** What a session stands for: a key (by id, so a revoked key ends its sessions) until a time. */
export interface Session {
  /** Names the session to what it opened (streams end on sign-out); unrelated to the token. */
  id: string;
  keyId: string;
  createdAt: number;
  expiresAt: number;
}

/**
 * Browser sessions in memory: a random 32-byte token per sign-in, of which only the SHA-256 is
 * kept, so a heap dump cannot be replayed as a cookie. Sessions end at a fixed time after sign-in
 * (no sliding renewal: a stolen cookie stays useful for a bounded time). The map is bounded:
 * past `maxSessions` the oldest sign-in goes first (a Map iterates in insertion order).
 * One process's memory: replicas behind a balancer need sticky sessions (docs/architecture.md).
 */
export class SessionStore {
  private readonly sessions = new Map<string, Session>();

  constructor(
    readonly ttlMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxSessions = 100_000,
  ) {}

  /** A new session for a key; returns the token to put in the cookie (never stored). */
  create(keyId: string): { token: string; session: Session } {
    this.sweep();
    const token = randomBytes(32).toString('base64url');
    const now = this.now();
    const session: Session = { id: randomUUID(), keyId, createdAt: now, expiresAt: now + this.ttlMs };
    this.sessions.set(digest(token), session);
    while (this.sessions.size > this.maxSessions) {
      const oldest = this.sessions.keys().next().value;
      if (oldest === undefined) break;
      this.sessions.delete(oldest);
    }
    return { token, session };
  }

  /** The live session a token names; an expired one is forgotten on sight. */
  get(token: string): Session | undefined {
    const id = digest(token);
    const session = this.sessions.get(id);
    if (!session) return undefined;
    if (this.now() >= session.expiresAt) {
      this.sessions.delete(id);
      return undefined;
    }
    return session;
  }

  /** Ends the session a token names; returns it (undefined: none was live). */
  delete(token: string): Session | undefined {
    const id = digest(token);
    const session = this.sessions.get(id);
    this.sessions.delete(id);
    return session;
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Drops expired sessions from the front (oldest first: all expire after the same TTL). */
  private sweep(): void {
    const now = this.now();
    for (const [id, s] of this.sessions) {
      if (s.expiresAt > now) break;
      this.sessions.delete(id);
    }
  }
}

function digest(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
