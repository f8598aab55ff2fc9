import { createHash, randomBytes, randomUUID } from 'node:crypto';

/** What a session stands for: a key (by id, so a revoked key ends its sessions) until a time. */
export interface Session {
  /** Names the session to what it opened (streams end on sign-out); unrelated to the token. */
  id: string;
  keyId: string;
  createdAt: number;
  expiresAt: number;
}

/** Told of the sessions this replica starts and ends (what another replica must learn of them). */
export interface SessionListener {
  created(digest: string, session: Session): void;
  ended(digest: string, session: Session): void;
  /** Resolves once what it was told so far is where other replicas see it. */
  flushed(): Promise<void>;
}

/**
 * Browser sessions in memory: a random 32-byte token per sign-in, of which only the SHA-256 is
 * kept, so a heap dump cannot be replayed as a cookie. Sessions end at a fixed time after sign-in
 * (no sliding renewal: a stolen cookie stays useful for a bounded time). The map is bounded:
 * past `maxSessions` the oldest sign-in goes first (a Map iterates in insertion order).
 * One process's memory; with a listener (`RedisSessions`) every replica holds every session, so
 * no balancer stickiness is needed. Lookups stay synchronous: the auth hook asks on every request.
 */
export class SessionStore {
  private readonly sessions = new Map<string, Session>();
  private listener: SessionListener | null = null;

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
    const id = digest(token);
    this.sessions.set(id, session);
    this.listener?.created(id, session);
    this.bound();
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
    const session = this.drop(id);
    if (session) this.listener?.ended(id, session);
    return session;
  }

  /** Resolves once the sessions started and ended here so far are seen by every replica. */
  async settled(): Promise<void> {
    await this.listener?.flushed();
  }

  /** Tells `listener` of every session started or ended here from now on. */
  listen(listener: SessionListener): void {
    this.listener = listener;
  }

  /** A session another replica started, by its token's digest (tokens never leave the replica that made them). */
  adopt(id: string, session: Session): void {
    if (this.now() >= session.expiresAt) return;
    this.sessions.delete(id); // re-inserted at the back: the order stays by sign-in
    this.sessions.set(id, session);
    this.bound();
  }

  /** Forgets a session another replica ended; returns it (undefined: not held here). */
  drop(id: string): Session | undefined {
    const session = this.sessions.get(id);
    this.sessions.delete(id);
    return session;
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Past `maxSessions`, the oldest sign-in goes first (a Map iterates in insertion order). */
  private bound(): void {
    while (this.sessions.size > this.maxSessions) {
      const oldest = this.sessions.keys().next().value;
      if (oldest === undefined) break;
      this.sessions.delete(oldest);
    }
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
