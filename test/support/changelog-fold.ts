import type { OddsRow } from '../../schemas/index.js';
import { TOPIC_CONFIGS, TOPICS } from '../../schemas/index.js';
import type { Bus, Consumer } from '../../pipeline/bus/index.js';
import { rowId } from '../../pipeline/snapshot/index.js';
import { changelogReader } from '../../api/queries/index.js';

/** A row key's last record in `odds.snapshot`: where it sits, and the row (null: a removal). */
export interface LastRecord {
  key: string;
  partition: number;
  offset: number;
  row: OddsRow | null;
}

/** Each key's last record by row id (what `/odds` names a row by), and the first offset read in each partition. */
export interface OddsFold {
  rows: Map<string, LastRecord>;
  /** Per partition, the first offset a read from offset 0 got: above 0 when the cluster deleted the log's head. */
  starts: Map<number, number>;
}

/**
 * A third reader of the odds changelog: every record from offset 0 to the end of every partition,
 * folded to each key's last record. What a replica's board must hold once nothing more is written,
 * as long as the log still holds every key's last record (Kafka's compaction keeps it; a log that
 * deletes its head, as librdkafka's mock cluster does past 5 MB a partition, does not).
 */
export async function foldOddsChangelog(bus: Bus): Promise<OddsFold> {
  const partitions = TOPIC_CONFIGS[TOPICS.snapshot].partitions;
  const fold: OddsFold = { rows: new Map(), starts: new Map() };
  await changelogReader(bus).odds(
    new Array<number>(partitions).fill(0),
    new Array<number>(partitions).fill(Number.POSITIVE_INFINITY),
    (change, at) => {
      if (!fold.starts.has(at.partition)) fold.starts.set(at.partition, at.offset);
      fold.rows.set(rowId(change.key), { key: change.key, partition: at.partition, offset: at.offset, row: change.row });
    },
  );
  return fold;
}

/**
 * Follows `odds.snapshot` from offset 0 in a consumer group of its own that never commits, from
 * before the first record is written to `stop`: it sees every record, those the cluster deletes
 * later included, so it knows where a key's last record was when the log no longer has it.
 */
export class ChangelogFollower {
  readonly rows = new Map<string, LastRecord>();
  private readonly consumer: Consumer<typeof TOPICS.snapshot>;

  constructor(bus: Bus) {
    this.consumer = bus.consumer({
      groupId: `changelog-follower-${Date.now()}`,
      topic: TOPICS.snapshot,
      fromBeginning: true,
      commit: false,
    });
    this.consumer.run(async (batch) => {
      for (const r of batch.records)
        if (r.value) this.rows.set(rowId(r.value.key), { key: r.value.key, partition: r.partition, offset: r.offset, row: r.value.row });
    });
  }

  /** Resolves once the follower read everything written so far (lag 0 for three seconds), or `timeoutMs` passed. */
  async caughtUp(timeoutMs = 120_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    for (let calm = 0; calm < 6 && Date.now() < end;) {
      await new Promise((r) => setTimeout(r, 500));
      calm = this.rows.size > 0 && this.consumer.lag() === 0 ? calm + 1 : 0;
    }
  }

  stop(): Promise<void> {
    return this.consumer.stop();
  }
}

/** What `/odds` serves of a row that the fold can check: its price and when the book set it. */
export interface ServedPrice {
  oddsAmerican: number;
  timestamp: number;
  /** Where the row sits (event, market, participant, selection, line, book): names a row the changelog lacks. */
  place: string;
}

/** A served board against the fold: counts, and the first few keys of each kind with their last offsets. */
export interface FoldDiff {
  /** Rows the fold holds that the board lacks. */
  missing: number;
  /** Rows the board serves whose key's last record is a removal, or that the changelog does not have. */
  extra: number;
  /** Rows on both whose price or time differs. */
  differing: number;
  /**
   * Of `extra`, rows whose last record the follower saw below where the log now starts: the
   * cluster deleted it, so no reload can hold the row. Not a reload bug, but the log broke the
   * compacted topic's promise.
   */
  deleted: number;
  /** Up to `examples` lines per kind: the key, its last record's partition@offset, and what the board holds. */
  examples: string[];
}

/**
 * `served` against `fold`; with `history` (a `ChangelogFollower`'s rows), a served row the log no
 * longer has is told apart: its last record deleted by the cluster, or never written.
 */
export function compareWithFold(
  served: ReadonlyMap<string, ServedPrice>,
  fold: OddsFold,
  history?: ReadonlyMap<string, LastRecord>,
  examples = 3,
): FoldDiff {
  const diff: FoldDiff = { missing: 0, extra: 0, differing: 0, deleted: 0, examples: [] };
  const shown = { missing: 0, extra: 0, differing: 0, deleted: 0 };
  const note = (kind: keyof typeof shown, line: string): void => {
    if (kind === 'deleted') diff.extra++;
    diff[kind]++;
    if (shown[kind]++ < examples) diff.examples.push(`${kind} ${line}`);
  };
  const place = (r: LastRecord): string => `${r.key} (last record p${r.partition}@${r.offset}`;
  for (const [id, last] of fold.rows) {
    const held = served.get(id);
    if (last.row === null) {
      if (held) note('extra', `${place(last)}: a removal), served at ${held.oddsAmerican}`);
      continue;
    }
    if (!held) note('missing', `${place(last)}: ${last.row.priceAmerican} at ${last.row.ts}), not served`);
    else if (held.oddsAmerican !== last.row.priceAmerican || held.timestamp !== last.row.ts)
      note('differing', `${place(last)}: ${last.row.priceAmerican} at ${last.row.ts}), served ${held.oddsAmerican} at ${held.timestamp}`);
  }
  for (const [id, held] of served) {
    if (fold.rows.has(id)) continue;
    const seen = history?.get(id);
    const start = seen ? (fold.starts.get(seen.partition) ?? 0) : 0;
    if (seen && seen.offset < start)
      note('deleted', `${place(seen)}, deleted: the log now starts @${start}), served at ${held.oddsAmerican}`);
    else note('extra', `${held.place} (id ${id}: not in the changelog), served at ${held.oddsAmerican}`);
  }
  return diff;
}

/** One line: `matches the changelog`, or the counts and examples. */
export function foldDiffLine(diff: FoldDiff): string {
  if (diff.missing + diff.extra + diff.differing === 0) return 'matches the changelog';
  const deleted = diff.deleted > 0 ? ` (${diff.deleted} of them with their last record deleted by the cluster)` : '';
  return `lacks ${diff.missing}, serves ${diff.extra} it should not${deleted}, ${diff.differing} differ: ${diff.examples.join('; ')}`;
}

/** Where each partition of the log starts now, when the cluster deleted its head: `p2@3400, ...` (empty: none did). */
export function deletedHeads(fold: OddsFold): string {
  return [...fold.starts]
    .filter(([, start]) => start > 0)
    .sort(([a], [b]) => a - b)
    .map(([p, start]) => `p${p}@${start}`)
    .join(', ');
}

/** `/odds` rows as comparable text by id (`comparableRow`): the price and time of each. */
export function servedPrices(rows: ReadonlyMap<string, string>): Map<string, ServedPrice> {
  const out = new Map<string, ServedPrice>();
  for (const [id, text] of rows) {
    const row = JSON.parse(text) as Record<string, unknown>;
    const place = ['event_id', 'market', 'participant', 'selection', 'line', 'sportsbook'].map((f) => String(row[f] ?? '')).join('|');
    out.set(id, { oddsAmerican: row['odds_american'] as number, timestamp: Date.parse(row['timestamp'] as string), place });
  }
  return out;
}
