import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  /** The key that opened the session; only it may use the session. */
  keyId: string;
  lastSeen: number;
}

export interface SessionLimits {
  /** A session unused this long is closed. */
  idleMs: number;
  /** Open sessions per key; the least recently used goes first. */
  perKey: number;
  /** Open sessions in all. */
  total: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { idleMs: 30 * 60_000, perKey: 32, total: 10_000 };

/**
 * Open MCP sessions by `Mcp-Session-Id`, bound to the key that opened them, bounded in number
 * and idle time. Sessions live in this process: behind a load balancer, route by the
 * `Mcp-Session-Id` header (a client whose session is gone gets 404 and initializes again).
 */
export class Sessions {
  private readonly byId = new Map<string, Session>();

  constructor(
    private readonly newServer: () => McpServer,
    private readonly limits: SessionLimits = DEFAULT_SESSION_LIMITS,
    private readonly now: () => number = Date.now,
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

  /** A transport and server for a request without a session id; kept only once it initializes. */
  async open(keyId: string): Promise<Session> {
    this.sweep();
    const server = this.newServer();
    const session: Session = { server, keyId, lastSeen: this.now(), transport: undefined as unknown as StreamableHTTPServerTransport };
    session.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        this.makeRoom(keyId);
        this.byId.set(id, session);
      },
      onsessionclosed: (id) => {
        this.byId.delete(id);
      },
    });
    session.transport.onclose = () => {
      const id = session.transport.sessionId;
      if (id !== undefined && this.byId.get(id) === session) this.byId.delete(id);
    };
    await server.connect(session.transport);
    return session;
  }

  /** Closes a transport that never became a session (the request was not an initialize). */
  async discardUnless(session: Session): Promise<void> {
    const id = session.transport.sessionId;
    if (id === undefined || this.byId.get(id) !== session) await session.server.close();
  }

  private makeRoom(keyId: string): void {
    const own = [...this.byId.entries()].filter(([, s]) => s.keyId === keyId);
    if (own.length >= this.limits.perKey) this.evict(own);
    if (this.byId.size >= this.limits.total) this.evict([...this.byId.entries()]);
  }

  private evict(candidates: [string, Session][]): void {
    const oldest = candidates.reduce((a, b) => (b[1].lastSeen < a[1].lastSeen ? b : a));
    this.byId.delete(oldest[0]);
    void oldest[1].server.close();
  }

  private sweep(): void {
    const cutoff = this.now() - this.limits.idleMs;
    for (const [id, s] of this.byId) {
      if (s.lastSeen < cutoff) {
        this.byId.delete(id);
        void s.server.close();
      }
    }
  }

  async closeAll(): Promise<void> {
    const all = [...this.byId.values()];
    this.byId.clear();
    await Promise.allSettled(all.map((s) => s.server.close()));
  }
}
