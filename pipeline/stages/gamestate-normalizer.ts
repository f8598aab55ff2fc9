import { TOPICS } from '../../schemas/index.js';
import type { OutgoingRecord } from '../bus/index.js';
import type { Normalizer } from '../normalize/index.js';
import type { LeagueOwnership } from './league-ownership.js';
import type { StageContext, StageSpec } from './stage.js';

export interface GameStateNormalizerParts {
  /** The normalizer stage's own: its events come from that stage's restore. */
  normalizer: Normalizer;
  leagues: LeagueOwnership;
}

/**
 * Game state from feeds that report it, resolved to canonical events; the status it reports
 * becomes the event's (live, final, postponed, cancelled). The leagues it reads are kept by the
 * normalizer stage's restore, so an assignment only records them.
 */
export function gameStateNormalizerStage(ctx: StageContext, parts: GameStateNormalizerParts): StageSpec<typeof TOPICS.rawGameState> {
  const { producer, clock } = ctx;
  const { normalizer, leagues } = parts;
  return {
    name: 'normalizer:gamestate',
    groupId: 'normalizer-gamestate',
    input: TOPICS.rawGameState,
    output: [TOPICS.events, TOPICS.gameState],
    tables: [],
    state: {
      assign: async (partitions) => {
        leagues.gain('gameState', partitions);
      },
      revoke: (partitions) => {
        leagues.lose('gameState', partitions);
        normalizer.forgetLeagues(leagues.normalizes);
      },
    },
    handle: async (records, { hold }) => {
      const now = clock.now();
      const states: OutgoingRecord<typeof TOPICS.gameState>[] = [];
      const events: OutgoingRecord<typeof TOPICS.events>[] = [];
      for (const record of records) {
        if (record.value === null) continue;
        const result = normalizer.handleGameState(record.value, now);
        for (const e of result.events) events.push({ key: e.id, value: e });
        if (result.state) states.push({ key: result.state.eventId, value: result.state });
      }
      if (events.length > 0) await producer.send(TOPICS.events, events, hold);
      if (states.length > 0) await producer.send(TOPICS.gameState, states, hold);
    },
  };
}
