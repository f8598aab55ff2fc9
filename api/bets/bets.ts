import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { TOPICS } from '../../schemas/index.js';
import type { BetRecord } from '../../schemas/index.js';
import type { Bus, Consumer, Producer } from '../../pipeline/bus/index.js';
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
    await this.producer?.send(TOPICS.bets, [{ key: `bet:${bet.id}`, value: bet }]);
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
}): Promise<BetsReplica> {
  const ledger = new BetLedger();
  for (const row of await options.store.query(BET_SELECT)) ledger.apply(betFromRow(row));
  const consumer: Consumer<typeof TOPICS.bets> = options.bus.consumer({
    groupId: `api-bets-${options.replicaId}`,
    topic: TOPICS.bets,
    fromBeginning: true,
  });
  consumer.run(async (batch) => {
    for (const r of batch.records) if (r.value !== null) ledger.apply(r.value);
  });
  consumer.done.catch((err: unknown) =>
    options.logger.error({ err }, 'bets topic consumer stopped: bets logged on other replicas no longer arrive'),
  );
  return { bets: new Bets(ledger, options.store, options.bus.producer(), options.now ?? Date.now), stop: () => consumer.stop() };
}
