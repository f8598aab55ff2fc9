import type { FeedRecord } from '../../schemas/index.js';
import type { Feed } from '../../pipeline/feeds/feed.js';

/** A feed a test drives by hand: `push` emits ticks (and splits) through the real pipeline. */
export class ScriptedFeed implements Feed {
  readonly name = 'scripted';
  private emit: ((records: readonly FeedRecord[]) => Promise<void>) | null = null;

  constructor(private readonly initial: readonly FeedRecord[] = []) {}

  async start(emit: (records: readonly FeedRecord[]) => Promise<void>): Promise<void> {
    this.emit = emit;
    if (this.initial.length > 0) await emit(this.initial);
  }

  async push(records: readonly FeedRecord[]): Promise<void> {
    if (!this.emit) throw new Error('feed not started');
    await this.emit(records);
  }

  async stop(): Promise<void> {
    this.emit = null;
  }
}
