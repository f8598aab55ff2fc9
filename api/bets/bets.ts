import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { TOPICS } from '../../schemas/index.js';
import type { BetRecord } from '../../schemas/index.js';
import { NO_BATCH } from '../../pipeline/bus/index.js';
import type { Bus, Producer } from '../../pipeline/bus/index.js';
import { startStage } from '../../pipeline/runner.js';
import type { StageFailureHandler } from '../../pipeline/runner.js';
import type { OlapStore } from '../../pipeline/store/index.js';
import { BetLedger } from './ledger.js';
import { BET_SELECT, betFromRow, betRow } from './rows.js';

/** A bet as the caller logs it: everything but the ids, times and version the ledger sets. */
export type NewBet = Omit<BetRecord, 'id' | 'createdAt' | 'deletedAt' | 'version'>;

/**
 * The write side of the bet ledger, the path API keys take: the store first (an acknowledged bet
 * survives any restart), then this replica's view (the caller's next request sees it), then the
 * compacted `bets` topic, which every other replica follows.
 */
export class Bets {
  constructor(
    readonly ledger: BetLedger,
    private readonly store: OlapStore,
    private readonly producer: Producer | null,
    private readonly now: () => number,
  ) {}

  async log(bet: NewBet): Promise<BetRecord> {
    const now = this.now();
    const record: BetRecord = { ...bet, id: `bet_${randomBytes(8).toString('hex')}`, createdAt: now, deletedAt: null, version: now };
    await this.commit(record);
    return record;
  }

  /** Deletes an account's bet; undefined when the account has no such bet (another account's included). */
  async delete(accountId: string, id: string): Promise<BetRecord | undefined> {
    const current = this.ledger.bet(accountId, id);
    if (!current) return undefined;
    const now = this.now();
    const deleted = { ...current, deletedAt: now, version: Math.max(current.version + 1, now) };
    await this.commit(deleted);
    return deleted;
  }

  private async commit(bet: BetRecord): Promise<void> {
    await this.store.insert('bets', [betRow(bet)]);
    this.ledger.apply(bet);
    await this.producer?.send(TOPICS.bets, [{ key: `bet:${bet.id}`, value: bet }], NO_BATCH);
  }
}

export interface BetsReplica {
  bets: Bets;
  /** Stops following the topic. */
  stop(): Promise<void>;
}

/**
 * One API replica's ledger: loaded from the store, then kept current by its own consumer group on
 * the `bets` topic from the beginning (as `startAccounts` does for keys).
 */
export async function startBets(options: {
  bus: Bus;
  store: OlapStore;
  now?: () => number;
  replicaId: string;
  logger: Logger;
  /** The runtime's failure policy for the topic's consumer. */
  onFailure?: StageFailureHandler;
}): Promise<BetsReplica> {
  const ledger = new BetLedger();
  for (const row of await options.store.query(BET_SELECT)) ledger.apply(betFromRow(row));
  // Under the runtime's failure policy, as `startAccounts`: a stopped consumer would leave bets
  // logged on other replicas missing here for good.
  const stage = startStage(
    options.bus,
    'view:bets',
    { groupId: `api-bets-${options.replicaId}`, topic: TOPICS.bets, fromBeginning: true, shared: false },
    async (records) => {
      for (const r of records) if (r.value !== null) ledger.apply(r.value);
    },
    options.logger,
    options.onFailure,
  );
  return { bets: new Bets(ledger, options.store, options.bus.producer(), options.now ?? Date.now), stop: () => stage.stop() };
}
