import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { forgetAnsweredStreams } from './answered-streams.js';
import type { AccessLeases, AuthenticatedKey, LeaseSession } from '../accounts/index.js';

export interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  /** The key that opened the session; only it may use the session. */
  keyId: string;
  /** Sessions are counted per account, whichever of its keys opened them. */
  accountId: string;
  lastSeen: number;
  /** Gives back its hold on the key's access (see AccessLeases). */
  release: () => void;
  /** Gives back the place it held under the global cap while its `initialize` was handled (idempotent). */
  givePlace: () => void;
}

export interface SessionLimits {
  /** A session unused this long is closed. */
  idleMs: number;
  /**
   * Open sessions per account (over all its keys). At the cap a new `initialize` ends the
   * account's least recently used session rather than being refused: an agent that initializes
   * again has almost always lost its old session (restarted, crashed, dropped its id), and a
   * refusal would lock it out until the idle timeout frees a slot; only the account's own
   * sessions are ever ended this way.
   */
  perAccount: number;
  /** Open sessions in all; past it a new session is refused (never someone else's ended). */
  total: number;
}

/** What a client refused at the global cap is told to wait: sessions end whenever agents close them or go idle. */
export const SESSIONS_FULL_RETRY_AFTER_S = 30;

export const DEFAULT_SESSION_LIMITS: SessionLimits = { idleMs: 30 * 60_000, perAccount: 32, total: 10_000 };

/**
 * Open MCP sessions by `Mcp-Session-Id`, bound to the key that opened them, bounded in number
 * and idle time. Sessions live in this process: behind a load balancer, route by the
 * `Mcp-Session-Id` header (a client whose session is gone gets 404 and initializes again).
 */
export class Sessions {
  private readonly byId = new Map<string, Session>();
  /** Transports opened for an `initialize` still being handled: they hold a place until it is answered. */
  private pending = 0;

  constructor(
    private readonly newServer: () => McpServer,
    private readonly limits: SessionLimits = DEFAULT_SESSION_LIMITS,
    private readonly now: () => number = Date.now,
    /** Ends a session when its key stops being usable or its browser session signs out. */
    private readonly access?: AccessLeases,
  ) {}

  get size(): number {
    return this.byId.size;
  }

  /** The session, if it exists and belongs to the key. */
  find(id: string, keyId: string): Session | undefined {
    const s = this.byId.get(id);
    if (!s || s.keyId !== keyId) return undefined;
    s.lastSeen = this.now();
    return s;
  }

  /**
   * Whether an account may open a session now: there is room under the global cap, or the
   * account is at its own cap (its new session replaces its least recently used one, so the
   * total does not grow).
   */
  admits(accountId: string): boolean {
    this.sweep();
    return this.byId.size + this.pending < this.limits.total || this.held(accountId).length >= this.limits.perAccount;
  }

  /** A transport and server for a request without a session id; kept only once it initializes (ask `admits` first). */
  async open(key: AuthenticatedKey, browserSession?: LeaseSession): Promise<Session> {
    this.sweep();
    this.pending++;
    let placeHeld = true;
    const givePlace = (): void => {
      if (placeHeld) this.pending--;
      placeHeld = false;
    };
    const keyId = key.keyId;
    const server = this.newServer();
    const session: Session = {
      server,
      keyId,
      accountId: key.accountId,
      lastSeen: this.now(),
      transport: undefined as unknown as StreamableHTTPServerTransport,
      release: () => undefined,
      givePlace,
    };
    session.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        givePlace();
        this.makeRoom(key.accountId);
        this.byId.set(id, session);
        session.release =
          this.access?.hold({
            keyId,
            accountId: key.accountId,
            tier: key.tier,
            ...(browserSession ? { session: browserSession } : {}),
            // Its next request finds no session (or no key): the client is told as for any expired session.
            end: () => this.end(id, session),
          }) ?? session.release;
      },
      onsessionclosed: (id) => {
        this.forget(id, session);
      },
    });
    session.transport.onclose = () => {
      const id = session.transport.sessionId;
      if (id !== undefined) this.forget(id, session);
    };
    await server.connect(session.transport);
    return session;
  }

  /** Answers one HTTP request of the session, then lets go of what the SDK kept for it (see answered-streams.ts). */
  async handle(session: Session, request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void> {
    try {
      await session.transport.handleRequest(request, response, body);
    } finally {
      forgetAnsweredStreams(session.transport);
    }
  }

  /** Closes a transport that never became a session (the request was not an initialize). */
  async discardUnless(session: Session): Promise<void> {
    session.givePlace();
    const id = session.transport.sessionId;
    if (id === undefined || this.byId.get(id) !== session) await session.server.close();
  }

  private held(accountId: string): [string, Session][] {
    return [...this.byId.entries()].filter(([, s]) => s.accountId === accountId);
  }

  /** Only the account's own sessions ever make room for it: the global cap is kept by `admits`. */
  private makeRoom(accountId: string): void {
    const own = this.held(accountId);
    if (own.length >= this.limits.perAccount) this.evict(own);
  }

  private evict(candidates: [string, Session][]): void {
    const oldest = candidates.reduce((a, b) => (b[1].lastSeen < a[1].lastSeen ? b : a));
    this.end(oldest[0], oldest[1]);
  }

  private sweep(): void {
    const cutoff = this.now() - this.limits.idleMs;
    for (const [id, s] of this.byId) {
      if (s.lastSeen < cutoff) this.end(id, s);
    }
  }

  /** Forgets a session and closes its server. */
  private end(id: string, session: Session): void {
    this.forget(id, session);
    void session.server.close();
  }

  private forget(id: string, session: Session): void {
    if (this.byId.get(id) !== session) return;
    this.byId.delete(id);
    session.release();
  }

  async closeAll(): Promise<void> {
    const all = [...this.byId.values()];
    for (const s of all) s.release();
    this.byId.clear();
    await Promise.allSettled(all.map((s) => s.server.close()));
  }
}
