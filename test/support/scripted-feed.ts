import type { RawTick } from '../../schemas/index.js';
import type { Feed } from '../../pipeline/feeds/feed.js';

/** A feed a test drives by hand: `push` emits ticks through the real pipeline. */
export class ScriptedFeed implements Feed {
  readonly name = 'scripted';
  private emit: ((ticks: RawTick[]) => Promise<void>) | null = null;

  constructor(private readonly initial: RawTick[] = []) {}

  async start(emit: (ticks: RawTick[]) => Promise<void>): Promise<void> {
    this.emit = emit;
    if (this.initial.length > 0) await emit(this.initial);
  }

  async push(ticks: RawTick[]): Promise<void> {
    if (!this.emit) throw new Error('feed not started');
    await this.emit(ticks);
  }

  async stop(): Promise<void> {
    this.emit = null;
  }
}
