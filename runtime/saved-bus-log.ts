import { readFileSync, renameSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { MemoryBus } from '../pipeline/bus/index.js';
import type { ForgetRemovals, MemoryBusImage, MemoryBusOptions, RemovalRetention } from '../pipeline/bus/index.js';
import type { OddsChange, TopicName } from '../schemas/index.js';
import { TOPICS, settingDefault } from '../schemas/index.js';

/** Where the in-process bus leaves its log for the next run, in `DATA_DIR`. */
export const BUS_LOG_FILE = 'bus-log.json';

/** A removal of an odds row: the one record whose keys grow without bound (every row that ever was). */
const isOddsRowRemoval = (topic: TopicName, value: unknown): boolean =>
  topic === TOPICS.snapshot && (value as OddsChange | null)?.row === null;

/**
 * The in-process bus of one run, saved to `DATA_DIR` once everything on it has stopped (`close`
 * is the last step of a stop), so the next run continues its log: the same offsets, the
 * changelogs, the places the pipeline's groups committed. A removal of an odds row older than the
 * retention is left out of the file (the only record that grows without bound: every row that
 * ever was), and the log's floor moves past it, so a position from before it resyncs.
 */
class SavedMemoryBus extends MemoryBus {
  constructor(
    options: MemoryBusOptions,
    private readonly file: string,
    private readonly retentionMs: number,
    private readonly logger: Logger,
  ) {
    super(options);
  }

  override async close(): Promise<void> {
    await super.close();
    const forget: ForgetRemovals = { before: Date.now() - this.retentionMs, isRemoval: isOddsRowRemoval };
    try {
      // Whole or not at all: a stop cut short leaves no half-written log for the next run to trust.
      await writeFile(`${this.file}.tmp`, JSON.stringify(this.image(forget)));
      renameSync(`${this.file}.tmp`, this.file);
    } catch (e) {
      this.logger.warn({ err: e, file: this.file }, 'the bus log could not be saved: the next run starts a new log');
    }
  }
}

/** How long a running in-process bus keeps removals of odds rows (the setting's default when it is 0). */
export function removalRetentionOf(retentionMinutes: number): RemovalRetention {
  return { afterMs: (retentionMinutes || settingDefault('BUS_LOG_RETENTION_MINUTES')) * 60_000, isRemoval: isOddsRowRemoval };
}

/**
 * The in-process bus: a new log, or the one the last run saved in `dataDir` (when
 * `retentionMinutes` > 0). The file is removed once read: a run that ends without saving (a crash)
 * must not let the next one continue an older log under the same name, whose offsets this run
 * has since given to other records. While it runs, the bus lets go of removals past the same
 * retention (the setting's default when it is 0), so a long run holds the rows that are, not
 * every row that ever was.
 */
export function openMemoryBus(dataDir: string, retentionMinutes: number, now: () => number, logger: Logger): MemoryBus {
  const removalRetention = removalRetentionOf(retentionMinutes);
  if (retentionMinutes === 0) return new MemoryBus({ now, removalRetention });
  const file = join(dataDir, BUS_LOG_FILE);
  let image: MemoryBusImage | undefined;
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as MemoryBusImage;
    if (parsed.version === 1 && typeof parsed.name === 'string') image = parsed;
    else logger.warn({ file }, 'the saved bus log is of another version: a new log starts');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') logger.warn({ err: e, file }, 'the saved bus log cannot be read: a new log starts');
  }
  rmSync(file, { force: true });
  if (image) logger.info({ log: image.name }, 'the in-process bus continues the log the last run saved');
  return new SavedMemoryBus({ now, removalRetention, ...(image ? { image } : {}) }, file, retentionMinutes * 60_000, logger);
}
