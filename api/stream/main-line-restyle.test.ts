/**
 * What went wrong: `is_main_line` of a row depends on its event's other rows (the line most books
 * quote). A new line that moved the main line flipped the flag on rows that had not changed, and
 * the odds channel sent only the changed row, so a stream client kept the old flags while `/odds`
 * showed the new ones. Rows whose flag flips are now sent again as `odds:update`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { OddsMirror, SseClient } from '../../test/support/stream-clients.js';
import { fixtureEvent, startStreamApp } from '../../test/support/stream-app.js';
import type { StreamApp } from '../../test/support/stream-app.js';

let s: StreamApp;
afterEach(async () => {
  await s.close();
});

describe('odds channel and main lines', () => {
  it('re-sends rows whose main-line flag flips when another line of their event comes or goes', async () => {
    s = await startStreamApp();
    s.board.applyEvent(fixtureEvent('nba-1'));
    s.set('nba-1', 'draftkings', 'point_spread', 'home', 1.9, -2.5);
    s.set('nba-1', 'fanduel', 'point_spread', 'home', 1.9, -2.5);
    s.set('nba-1', 'betmgm', 'point_spread', 'home', 1.8, -3.5);
    const c = await SseClient.open(`${s.url}/api/v1/stream/odds?api_key=${s.keys.sharp}`);
    await c.until((f) => f.some((x) => x.event === 'snapshot:complete'));
    const flags = async (): Promise<Record<string, boolean>> => {
      const res = await fetch(`${s.url}/api/v1/odds?limit=100`, { headers: { 'x-api-key': s.keys.sharp } });
      const rows = ((await res.json()) as { data: { sportsbook: string; line: number; is_main_line: boolean }[] }).data;
      return Object.fromEntries(rows.map((r) => [`${r.sportsbook} ${r.line}`, r.is_main_line]));
    };
    expect(await flags()).toEqual({ 'draftkings -2.5': true, 'fanduel -2.5': true, 'betmgm -3.5': false });
    // fanduel now quotes -3.5 too: two books each, the tie goes to the lower line, -3.5.
    s.set('nba-1', 'fanduel', 'point_spread', 'home', 1.85, -3.5);
    await c.until((f) =>
      f
        .filter((x) => x.event === 'odds:update')
        .some((x) => (x.data as { odds: { sportsbook: string }[] }).odds.some((r) => r.sportsbook === 'draftkings')),
    );
    const mirror = new OddsMirror();
    for (const f of c.frames) {
      const d = f.data as Record<string, unknown>;
      if (f.event === 'snapshot' || f.event === 'odds:update') mirror.upsert(d['odds'] as Record<string, unknown>[]);
      if (f.event === 'odds:removed') mirror.remove(d['ids'] as string[]);
    }
    const streamed = Object.fromEntries(
      [...mirror.rows.values()].map((r) => [`${r['sportsbook'] as string} ${r['line'] as number}`, r['is_main_line']]),
    );
    expect(streamed).toEqual(await flags());
    expect(streamed).toEqual({ 'draftkings -2.5': false, 'fanduel -2.5': false, 'fanduel -3.5': true, 'betmgm -3.5': true });
    c.close();
  });
});
