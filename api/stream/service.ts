import type { SportsbookDef, TierName } from '../../schemas/index.js';
import { presentOdds } from '../contract/index.js';
import type { OpportunityList } from '../queries/index.js';
import { catchUpRows, encodePosition, opportunityContext, readLogSince } from '../queries/index.js';
import type { CatchUpRefusal, LogCatchUp, LogPosition, PositionTrail } from '../queries/index.js';
import type { FramePayload } from './frames.js';
import { TIERS } from '../../schemas/index.js';
import type { Catalog } from '../views/index.js';
import type { GameStateBoard } from '../views/index.js';
import type { OpportunityBoard } from '../views/index.js';
import type { SplitsBoard } from '../views/index.js';
import type { TierViews } from '../views/index.js';
import { GAMESTATE_CHANNEL, GameStateSource } from './gamestate-source.js';
import { DEFAULT_STREAM_OPTIONS, StreamHub } from './hub.js';
import type { Group, StreamSpec } from './hub.js';
import { ODDS_CHANNEL, OddsSource } from './odds-source.js';
import type { SnapshotRow } from './odds-source.js';
import { OPPORTUNITIES_CHANNEL, OpportunitySource } from './opportunity-source.js';
import { SPLITS_CHANNEL, SplitsSource } from './splits-source.js';
import { AlertSource } from './alert-source.js';
import type { AlertFollower } from './alert-source.js';
import { buildSpec } from './subscription.js';
import type { StreamRequest } from './subscription.js';

/** How long (data clock) members joining at the same group version share one snapshot. */
export const SNAPSHOT_SHARE_MS = 1000;

export interface StreamSettings {
  /** Sequence numbers the replay window keeps. */
  replayFrames: number;
  /** Wall-time age after which frames leave the window. */
  replayMs: number;
  /** Bytes of rendered frames the window keeps at most. */
  replayBytes: number;
  /** Bytes a connection may have waiting to be sent (beyond its initial snapshot) before it is dropped. */
  bufferBytes: number;
  heartbeatMs: number;
  /** Longest stretch sending a snapshot holds the event loop before yielding (tests set 0: a turn per frame). */
  snapshotTurnMs: number;
  /** Concurrent streams per account; the tier table's `maxStreams` when absent. */
  maxStreams?: (tier: TierName, accountId: string) => number;
}

export interface StreamDeps {
  views: TierViews;
  catalog: Catalog;
  opportunities?: OpportunityBoard;
  /** Current splits (the `splits` channel); the channel is empty without it. */
  splits?: SplitsBoard;
  /** Live game states (the `gamestate` channel); the channel is empty without it. */
  gameStates?: GameStateBoard;
  /** Every alert this replica raises (the `alerts` channel); the channel is empty without it. */
  alerts?: AlertFollower;
  /**
   * Where the live board stands in the changelogs: odds streams of the live board then name
   * their position in their SSE ids, and resume from one on any replica (`catchUp`).
   */
  positions?: PositionTrail;
  now: () => number;
  settings?: Partial<StreamSettings>;
}

export interface StreamSnapshot {
  /** Presented as each row's `json` is first read. */
  odds: SnapshotRow[] | null;
  lists: { list: OpportunityList; rows: string[] }[] | null;
  /** Live games, serialized (gamestate channel). */
  games: string[] | null;
  /** Splits records, serialized, in `/splits` order (splits channel). */
  splits: string[] | null;
}

/**
 * The streams' shared machinery: the hub, one odds source per board (live and each delayed
 * one, so delayed tiers get pushed their delayed changes) and the opportunity source. SSE and
 * WebSocket both open subscriptions here.
 */
export class StreamService {
  readonly hub: StreamHub;
  readonly settings: StreamSettings;
  private readonly odds = new Map<string, OddsSource>();
  private readonly opportunities: OpportunitySource | null;
  private readonly splits = new Map<string, SplitsSource>();
  private readonly games = new Map<string, GameStateSource>();
  private readonly alertSources: AlertSource[] = [];
  private unfollowAlerts = (): void => undefined;
  /** The feed name of the live board (the one the log positions are of). */
  private readonly liveFeed: string | undefined;

  constructor(private readonly deps: StreamDeps) {
    this.settings = { ...DEFAULT_STREAM_OPTIONS, ...deps.settings };
    this.liveFeed = deps.views.feeds().find(({ board }) => board === deps.views.live)?.feed;
    this.hub = new StreamHub({
      window: { maxFrames: this.settings.replayFrames, maxAgeMs: this.settings.replayMs, maxBytes: this.settings.replayBytes },
      heartbeatMs: this.settings.heartbeatMs,
      now: deps.now,
      maxStreams: this.settings.maxStreams ?? ((tier) => TIERS[tier].maxStreams),
      ...(deps.positions ? { position: { now: () => this.positionNow(), covers: (spec: StreamSpec) => this.followsLog(spec) } } : {}),
    });
    for (const { feed, board } of deps.views.feeds()) {
      const source = new OddsSource(
        feed,
        board,
        deps.catalog,
        (row, event, main) => presentOdds(deps.catalog, row, event, main ?? board.mainLines(event.id)),
        this.hub.schedule,
      );
      this.odds.set(feed, source);
      this.hub.addSource(source);
    }
    this.opportunities = deps.opportunities
      ? new OpportunitySource(
          deps.opportunities,
          deps.catalog,
          this.hub.schedule,
          (eventId) => deps.views.live.mainLines(eventId),
          opportunityContext(deps.opportunities, deps.gameStates),
        )
      : null;
    if (this.opportunities) this.hub.addSource(this.opportunities);
    // Splits reach each board's readers at that board's delay (the free tier's 60 s).
    const delayOf = new Map<string, number>();
    for (const tier of Object.keys(TIERS) as TierName[]) delayOf.set(deps.views.feedFor(tier), TIERS[tier].dataDelaySeconds * 1000);
    for (const { feed, board } of deps.views.feeds()) {
      if (deps.splits) {
        const source = new SplitsSource(feed, deps.splits, delayOf.get(feed) ?? 0, board, deps.catalog, this.hub.schedule);
        this.splits.set(feed, source);
        this.hub.addSource(source);
      }
      if (deps.gameStates) {
        const source = new GameStateSource(feed, deps.gameStates, deps.catalog, this.hub.schedule);
        this.games.set(feed, source);
        this.hub.addSource(source);
      }
      if (deps.alerts) {
        const source = new AlertSource(feed, this.hub.schedule);
        this.alertSources.push(source);
        this.hub.addSource(source);
      }
    }
    if (deps.alerts) this.unfollowAlerts = deps.alerts((alert) => this.alertSources.forEach((source) => source.receive(alert)));
  }

  /**
   * Parses a subscription (throws the REST errors: 400, 403) and returns its group, after
   * bringing the tier's board and the hub up to date, so the group's snapshot and the frames
   * that follow it meet exactly.
   */
  open(tier: TierName, req: StreamRequest): { spec: StreamSpec; group: Group } {
    const feed = this.deps.views.feedFor(tier);
    const spec = buildSpec(
      req,
      this.deps.catalog,
      tier,
      feed,
      this.deps.now(),
      (eventId) => this.deps.views.live.mainLines(eventId),
      this.deps.opportunities?.phantom,
    );
    this.deps.views.boardFor(tier);
    // Splits due at the tier's delay are released to the stream now, so the snapshot and the frames meet.
    this.deps.splits?.sync();
    this.hub.flush();
    return { spec, group: this.hub.group(spec) };
  }

  /**
   * `build()`'s value for the group, shared by every member that joins at the same group version
   * (no frame rendered for the group since) within `SNAPSHOT_SHARE_MS` of the data clock (rows
   * carry fields that age with the clock). Subscribers that connect together share one snapshot.
   */
  shared<T>(group: Group, key: string, build: () => T): T {
    const now = this.deps.now();
    const hit = group.cache.get(key);
    if (hit && hit.version === group.version && now - hit.at <= SNAPSHOT_SHARE_MS) return hit.value as T;
    const value = build();
    group.cache.set(key, { version: group.version, at: now, value });
    return value;
  }

  /** What a group's new subscriber starts from (call right after `open`, in the same turn). */
  snapshot(group: Group): StreamSnapshot {
    return this.shared(group, 'snapshot', () => this.buildSnapshot(group));
  }

  private buildSnapshot(group: Group): StreamSnapshot {
    const odds = group.spec.channels.has(ODDS_CHANNEL) ? (this.odds.get(group.spec.feed)?.snapshot(group) ?? []) : null;
    const lists = group.spec.channels.has(OPPORTUNITIES_CHANNEL) ? (this.opportunities?.snapshot(group, this.deps.now()) ?? []) : null;
    const games = group.spec.channels.has(GAMESTATE_CHANNEL) ? (this.games.get(group.spec.feed)?.snapshot(group) ?? []) : null;
    const splits = group.spec.channels.has(SPLITS_CHANNEL) ? (this.splits.get(group.spec.feed)?.snapshot(group) ?? []) : null;
    return { odds, lists, games, splits };
  }

  /**
   * Reads what changed after `position` (a client's place in the log, from another replica or
   * from before a restart) up to the live board now, for a subscription that follows the log.
   * Why not otherwise; the caller then sends a fresh snapshot. Asynchronous: call `open` again
   * afterwards, then `catchUp` in that same turn.
   */
  async readSince(group: Group, position: LogPosition): Promise<LogCatchUp | CatchUpRefusal | 'not_followed'> {
    if (!group.positional) return 'not_followed';
    return readLogSince(this.deps.positions, this.deps.positions?.read, position, this.deps.views.live);
  }

  /**
   * The frames that bring a new member of `group` from the read position to the board now; null
   * when the board's change log no longer reaches the read's time. Call right after `open`.
   */
  catchUp(group: Group, read: LogCatchUp): FramePayload[] | null {
    const rows = catchUpRows(this.deps.views.live, read);
    const source = this.odds.get(group.spec.feed);
    return rows && source ? source.catchUp(group, rows) : null;
  }

  /** The live board's position now, as frame ids carry it. */
  private positionNow(): string {
    const positions = this.deps.positions as PositionTrail;
    return encodePosition({ ...positions.now(), at: null });
  }

  /** Odds alone, of the live board: a state that is a function of the log position (opportunities, splits and the rest are not followed). */
  private followsLog(spec: StreamSpec): boolean {
    return spec.feed === this.liveFeed && spec.channels.size === 1 && spec.channels.has(ODDS_CHANNEL);
  }

  /** The catalog's sportsbooks (for the tier's book set in `connected`). */
  books(): SportsbookDef[] {
    return [...this.deps.catalog.books.values()];
  }

  close(): void {
    this.unfollowAlerts();
    this.hub.close();
  }
}
