import type { ApiKeyRecord, TierName } from '../../schemas/index.js';
import type { KeyStatus, KeyStore } from './key-store.js';

/** Why access that lasts (a stream, an MCP session) was ended; also the SSE error code and the WebSocket close reason. */
export type AccessEnd = 'key_revoked' | 'key_expired' | 'tier_changed' | 'signed_out' | 'session_expired' | 'displaced';

export const ACCESS_END_MESSAGES: ReadonlyMap<AccessEnd, string> = new Map<AccessEnd, string>([
  ['key_revoked', 'The API key was revoked'],
  ['key_expired', "The API key's grace period after rotation ended; connect with the key that replaced it"],
  ['tier_changed', "The API key moved to another tier; reconnect to get the new tier's data and limits"],
  ['signed_out', 'The browser session was signed out; sign in again'],
  ['session_expired', 'The browser session ended; sign in again'],
  [
    'displaced',
    "A newer stream of this account took this one's place: the account held its tier's number of concurrent streams, and the newest wins",
  ],
]);

/** A browser session that opened a lasting access (by cookie). */
export interface LeaseSession {
  id: string;
  expiresAt: number;
}

/** One lasting access, held from when it opens until it closes or is ended. */
export interface Lease {
  keyId: string;
  accountId: string;
  /** The tier it was opened with: a different tier later ends it. */
  tier: TierName;
  session?: LeaseSession;
  /**
   * Set on a stream (SSE or WebSocket): the connection's own token, the same object for the
   * leases it holds in turn (a WebSocket's `refresh_token` moves it to another key), so its age
   * among the account's streams is that of the connection.
   */
  stream?: object;
  /** Ends the access at once (idempotent); the holder releases its lease when it has closed. */
  end(reason: AccessEnd, message: string): void;
}

/** What ends a key's lasting access given its state now and its tier, if anything does. */
export function endOfKey(status: KeyStatus | undefined, tier: TierName | undefined, heldTier: TierName): AccessEnd | null {
  if (status === undefined || status === 'revoked') return 'key_revoked';
  if (status === 'expired') return 'key_expired';
  return tier === heldTier ? null : 'tier_changed';
}

/** What a key change ends, from the record before and after it (null: the key was not usable before either, or nothing changed that matters). */
export function endOfChange(before: ApiKeyRecord | undefined, after: ApiKeyRecord, afterStatus: KeyStatus): AccessEnd | null {
  if (afterStatus === 'revoked') return before?.active === false ? null : 'key_revoked';
  if (afterStatus === 'expired') return 'key_expired';
  return before !== undefined && before.tier !== after.tier ? 'tier_changed' : null;
}

/** How often held access is re-checked against the clock (grace periods and sessions end by time, not by a change). */
export const ACCESS_SWEEP_MS = 250;

/**
 * Every lasting access this replica holds, by key and by browser session. A key change applied
 * to the KeyStore (this replica's own write, or another replica's arriving on the accounts
 * topic) ends the key's access at once; time-based ends (a rotated key's grace period, a
 * session's lifetime) are found by a sweep that runs while anything is held. The same decision
 * as REST (the KeyStore's `status`), so a key refused on a request is also cut where it streams.
 */
export class AccessLeases {
  private readonly byKey = new Map<string, Set<Lease>>();
  private readonly bySession = new Map<string, Set<Lease>>();
  /** Per account, its streams' current leases by connection token, oldest connection first. */
  private readonly streams = new Map<string, Map<object, Lease>>();
  private readonly unsubscribe: () => void;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly keys: KeyStore,
    /** The clock of browser sessions' `expiresAt`. */
    private readonly sessionNow: () => number = Date.now,
    private readonly sweepMs = ACCESS_SWEEP_MS,
    /**
     * Told when ending one access throws: the others still end, and a key change being applied
     * (by this replica's write or the topic's consumer) is not failed by a stream's trouble.
     */
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {
    this.unsubscribe = keys.onKeyChange((before, after) => {
      const reason = endOfChange(before, after, keys.status(after.id) ?? 'revoked');
      if (reason) this.endKey(after.id, reason);
    });
  }

  /**
   * Registers a lasting access; returns its release (idempotent). An access whose key or session
   * is already over (it changed between authentication and here) is ended at once.
   */
  hold(lease: Lease): () => void {
    const over = this.check(lease);
    if (over) {
      this.end(lease, over);
      return () => undefined;
    }
    add(this.byKey, lease.keyId, lease);
    if (lease.session) add(this.bySession, lease.session.id, lease);
    if (lease.stream) {
      let held = this.streams.get(lease.accountId);
      if (!held) this.streams.set(lease.accountId, (held = new Map()));
      // A connection's next lease keeps the connection's place (Map keeps a key's first position).
      held.set(lease.stream, lease);
    }
    if (!this.timer && this.sweepMs > 0) {
      this.timer = setInterval(() => this.sweep(), this.sweepMs);
      this.timer.unref();
    }
    return () => this.release(lease);
  }

  /**
   * The stream-cap policy (the reference's): the newer stream wins. Before an account opens a
   * stream, its oldest streams on this replica are ended (`displaced`) until fewer than `cap`
   * remain; returns how many were ended.
   */
  makeRoomForStream(accountId: string, cap: number): number {
    let ended = 0;
    // A cap of none is a refusal (the caller's), not a reason to end what is open.
    if (cap <= 0) return 0;
    for (const lease of [...(this.streams.get(accountId)?.values() ?? [])]) {
      if ((this.streams.get(accountId)?.size ?? 0) < cap) break;
      this.end(lease, 'displaced');
      ended++;
    }
    return ended;
  }

  /** Ends every access opened with a browser session (sign-out); how many. */
  endSession(sessionId: string, reason: AccessEnd = 'signed_out'): number {
    return this.endAll(this.bySession.get(sessionId), reason);
  }

  /** Lasting access held by the key on this replica. */
  heldBy(keyId: string): number {
    return this.byKey.get(keyId)?.size ?? 0;
  }

  close(): void {
    this.unsubscribe();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private endKey(keyId: string, reason: AccessEnd): void {
    this.endAll(this.byKey.get(keyId), reason);
  }

  private endAll(leases: Set<Lease> | undefined, reason: AccessEnd): number {
    const all = [...(leases ?? [])];
    for (const lease of all) this.end(lease, reason);
    return all.length;
  }

  private check(lease: Lease): AccessEnd | null {
    const keyEnd = endOfKey(this.keys.status(lease.keyId), this.keys.key(lease.keyId)?.tier, lease.tier);
    if (keyEnd) return keyEnd;
    return lease.session && this.sessionNow() >= lease.session.expiresAt ? 'session_expired' : null;
  }

  private sweep(): void {
    const ended: [Lease, AccessEnd][] = [];
    for (const leases of this.byKey.values()) {
      for (const lease of leases) {
        const over = this.check(lease);
        if (over) ended.push([lease, over]);
      }
    }
    for (const [lease, reason] of ended) this.end(lease, reason);
    if (this.byKey.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  private end(lease: Lease, reason: AccessEnd): void {
    this.release(lease);
    try {
      lease.end(reason, messageOf(reason));
    } catch (err) {
      this.onError(err);
    }
  }

  private release(lease: Lease): void {
    remove(this.byKey, lease.keyId, lease);
    if (lease.session) remove(this.bySession, lease.session.id, lease);
    const held = lease.stream ? this.streams.get(lease.accountId) : undefined;
    if (lease.stream && held?.get(lease.stream) === lease) {
      held.delete(lease.stream);
      if (held.size === 0) this.streams.delete(lease.accountId);
    }
  }
}

function messageOf(reason: AccessEnd): string {
  return ACCESS_END_MESSAGES.get(reason) ?? reason;
}

function add(index: Map<string, Set<Lease>>, id: string, lease: Lease): void {
  let set = index.get(id);
  if (!set) index.set(id, (set = new Set()));
  set.add(lease);
}

function remove(index: Map<string, Set<Lease>>, id: string, lease: Lease): void {
  const set = index.get(id);
  if (!set) return;
  set.delete(lease);
  if (set.size === 0) index.delete(id);
}
