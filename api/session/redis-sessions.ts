import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Session, SessionListener, SessionStore } from './sessions.js';

export interface RedisSessionsOptions {
  url: string;
  logger: Pick<Logger, 'warn'>;
  store: SessionStore;
  /** A session another replica ended (sign-out): end what it opened here. */
  onEnded: (sessionId: string) => void;
  /** Key prefix, so several deployments can share one Redis. */
  prefix?: string;
}

interface Change {
  /** The replica that made the change (it applied it already). */
  from: string;
  op: 'set' | 'del';
  digest: string;
  session: Session;
}

const isSession = (x: unknown): x is Session => {
  const s = x as Partial<Session> | null;
  return (
    typeof s === 'object' &&
    s !== null &&
    typeof s.id === 'string' &&
    typeof s.keyId === 'string' &&
    typeof s.createdAt === 'number' &&
    typeof s.expiresAt === 'number'
  );
};

/**
 * Browser sessions shared by every API replica through Redis. Each replica still answers from its
 * own `SessionStore` (the auth hook is synchronous and runs on every request); Redis holds every
 * live session (`<prefix>s:<token digest>`, expiring with the session) for replicas that start
 * later, and a channel (`<prefix>changes`) tells the running ones of each sign-in and sign-out
 * as it happens, so a cookie works on any replica and a sign-out ends the session's streams on
 * every replica within the channel's latency (milliseconds). Only token digests travel, never a
 * token. A revoked key needs nothing here: every replica's key store learns of it from the
 * accounts topic, and sessions are checked against their key at each use.
 */
export class RedisSessions implements SessionListener {
  private readonly redis: Redis;
  private readonly subscriber: Redis;
  private readonly prefix: string;
  private readonly channel: string;
  private readonly replica = randomBytes(6).toString('base64url');
  /** Writes not yet acknowledged by Redis: sign-in waits for its own, so the next request finds it everywhere. */
  private pending = new Set<Promise<unknown>>();

  constructor(private readonly options: RedisSessionsOptions) {
    this.prefix = options.prefix ?? 'odds:session:';
    this.channel = `${this.prefix}changes`;
    const connection = { maxRetriesPerRequest: 1, retryStrategy: (attempt: number) => Math.min(attempt * 200, 2000) };
    this.redis = new Redis(options.url, connection);
    this.subscriber = new Redis(options.url, connection);
    const warn = (err: Error): void => options.logger.warn({ reason: err.message }, 'Redis unavailable for shared sessions');
    this.redis.on('error', warn);
    this.subscriber.on('error', warn);
    this.subscriber.on('message', (_channel: string, text: string) => this.receive(text));
    // After a reconnect, sign-ins made meanwhile elsewhere are loaded again.
    this.subscriber.on('ready', () => void this.load().catch(warn));
    options.store.listen(this);
  }

  /** Subscribes and loads the live sessions; false when Redis did not answer in `timeoutMs` (sessions stay local meanwhile). */
  async start(timeoutMs = 3000): Promise<boolean> {
    const started = (async () => {
      await this.subscriber.subscribe(this.channel);
      await this.load();
      return true;
    })();
    const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), timeoutMs).unref());
    return Promise.race([started.catch(() => false), timeout]);
  }

  created(digest: string, session: Session): void {
    const ttl = Math.max(1, session.expiresAt - Date.now());
    const change: Change = { from: this.replica, op: 'set', digest, session };
    this.track(
      this.redis
        .multi()
        .set(`${this.prefix}s:${digest}`, JSON.stringify(session), 'PX', ttl)
        .publish(this.channel, JSON.stringify(change))
        .exec(),
    );
  }

  ended(digest: string, session: Session): void {
    const change: Change = { from: this.replica, op: 'del', digest, session };
    this.track(this.redis.multi().del(`${this.prefix}s:${digest}`).publish(this.channel, JSON.stringify(change)).exec());
  }

  /** Resolves once every sign-in and sign-out made here so far reached Redis (or failed). */
  async flushed(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  async close(): Promise<void> {
    await this.flushed();
    for (const connection of [this.subscriber, this.redis]) {
      try {
        await connection.quit();
      } catch {
        connection.disconnect();
      }
    }
  }

  private track(write: Promise<unknown>): void {
    const done: Promise<unknown> = write
      .catch((e: unknown) =>
        this.options.logger.warn({ reason: e instanceof Error ? e.message : String(e) }, 'a session change did not reach Redis'),
      )
      .finally(() => this.pending.delete(done));
    this.pending.add(done);
  }

  private receive(text: string): void {
    let change: Partial<Change>;
    try {
      change = JSON.parse(text) as Partial<Change>;
    } catch {
      return;
    }
    if (change.from === this.replica || typeof change.digest !== 'string' || !isSession(change.session)) return;
    if (change.op === 'set') this.options.store.adopt(change.digest, change.session);
    else if (change.op === 'del') {
      this.options.store.drop(change.digest);
      this.options.onEnded(change.session.id);
    }
  }

  private async load(): Promise<void> {
    const match = `${this.prefix}s:*`;
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', match, 'COUNT', 1000);
      cursor = next;
      if (keys.length === 0) continue;
      const values = await this.redis.mget(...keys);
      keys.forEach((key, i) => {
        const text = values[i];
        if (text === null || text === undefined) return;
        try {
          const session: unknown = JSON.parse(text);
          if (isSession(session)) this.options.store.adopt(key.slice(`${this.prefix}s:`.length), session);
        } catch {
          // not ours: ignored
        }
      });
    } while (cursor !== '0');
  }
}
