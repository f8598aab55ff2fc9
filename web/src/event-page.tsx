import { useEffect, useState } from 'preact/hooks';
import { ApiFailure, api } from './api.js';
import type { GameStateRow, GameStates, HistoryPoint, SessionInfo, SplitsRow } from './responses.js';
import { EventTable, bookColumns, groupEvents, linesOf, openingLine } from './board.js';
import { LineChart } from './chart.js';
import type { Series } from './chart.js';
import { formatPrice, formatTime, pct } from './format.js';
import type { OddsFormat } from './format.js';
import { useLive } from './live.js';
import { LogBet } from './log-bet.js';
import type { BetDraft } from './log-bet.js';
import type { LiveData, LiveOdds } from './live.js';

/** The home side of a spread or moneyline split, the over of a total. */
const homeOrOver = (shares: { home: number } | { over: number }): number => ('home' in shares ? shares.home : shares.over);

const sameLine = (p: HistoryPoint, r: LiveOdds): boolean =>
  p.market === r.market &&
  p.selection === r['selection_type'] &&
  (p.line ?? null) === (r['line'] ?? null) &&
  (p.participant ?? null) === (r['participant'] ?? null) &&
  (p.stat_category ?? null) === (r['stat_category'] ?? null);

/** A bet on one book's price of a line, as the event page offers it. */
const draftOf = (r: LiveOdds, event: string): BetDraft => ({
  from: { odds_row_id: r.id },
  event,
  market: String(r['market_type'] ?? r.market),
  marketId: r.market,
  selection: r.selection,
  line: r['line'],
  book: r.sportsbook,
  oddsAmerican: r.odds_american,
});

export function EventPage({ live, me, id, format }: { live: LiveData; me: SessionInfo; id: string; format: OddsFormat }) {
  useLive(live);
  useEffect(() => live.setOddsSpec({ event: id }), [id]);
  const rows = [...live.odds.values()].filter((r) => r.event_id === id);
  const event = groupEvents(rows)[0];
  const lines = linesOf(rows);
  const [lineKey, setLineKey] = useState('');
  const chosen = lines.find((l) => l.key === lineKey) ?? openingLine(lines);
  // The history is kept with the line it belongs to, so a refetch for the same line (a book
  // joined, or the stream's snapshot arrived in another order) keeps the chart drawn meanwhile.
  const [loaded, setLoaded] = useState<{ line: string; points: HistoryPoint[] } | null>(null);
  const [error, setError] = useState('');
  const [splits, setSplits] = useState<SplitsRow[] | null>(null);
  const [game, setGame] = useState<GameStateRow | null | undefined>(undefined);
  const [betting, setBetting] = useState(false);

  const sample = chosen ? [...chosen.byBook.values()][0] : undefined;
  const books = chosen ? [...chosen.byBook.keys()] : [];
  // The set of books, not their order: rows arrive in whatever order the stream sends them.
  const bookSet = [...books].sort().join(',');
  const history = loaded !== null && loaded.line === `${id}|${chosen?.key ?? ''}` ? loaded.points : null;
  useEffect(() => {
    if (!sample || !chosen) return;
    const line = `${id}|${chosen.key}`;
    let current = true;
    setError('');
    const q = new URLSearchParams({
      market: sample.market,
      selection: String(sample['selection_type']),
      sportsbook: bookSet,
      limit: '10000',
    });
    api<HistoryPoint[]>(`/events/${encodeURIComponent(id)}/history?${q.toString()}`).then(
      (r) => {
        if (current) setLoaded({ line, points: r.data.filter((p) => sameLine(p, sample)) });
      },
      (e: unknown) => {
        if (current) setError(e instanceof ApiFailure ? e.message : 'The history cannot be loaded');
      },
    );
    // An answer for a line or book set the page has moved on from must not overwrite a newer one.
    return () => {
      current = false;
    };
  }, [id, chosen?.key, bookSet]);

  useEffect(() => {
    api<SplitsRow[]>(`/splits?event=${encodeURIComponent(id)}`).then(
      (r) => setSplits(r.data),
      () => setSplits([]),
    );
    if (me.features.gamestate.available) {
      // The answer is by sport, then event id.
      api<GameStates>('/gamestate').then(
        (r) => setGame(Object.values(r.data).find((bySport) => bySport[id])?.[id] ?? null),
        () => setGame(null),
      );
    }
  }, [id]);

  if (!event) {
    return (
      <section>
        <p>
          <a href="#/board">← Board</a>
        </p>
        <p role="status">
          {live.snapshotComplete ? 'This event is not on the board (finished, or not offered at your books).' : 'Loading…'}
        </p>
      </section>
    );
  }

  // The chart: stored history, then the live price of each book (the stream is newer than the store).
  const series: Series[] = books.map((book) => {
    const pts = (history ?? [])
      .filter((p) => p.sportsbook === book)
      .map((p) => ({
        t: Date.parse(p.timestamp),
        p: p.probability,
        label:
          p.odds_american === null
            ? 'suspended'
            : formatPrice(p as { odds_american: number; odds_decimal: number; probability: number }, format),
      }));
    const now = chosen?.byBook.get(book);
    if (now && !now._suspended) {
      const t = Date.parse(String(now['timestamp']));
      const last = pts[pts.length - 1];
      if (!last || t > last.t || last.p !== now.probability)
        pts.push({ t: Math.max(t, last?.t ?? t), p: now.probability, label: formatPrice(now, format) });
    }
    return { book, name: String(now?.['sportsbook_name'] ?? book), points: pts };
  });

  return (
    <section aria-labelledby="event-title">
      <p>
        <a href="#/board">← Board</a>
      </p>
      <h2 id="event-title">
        {event.away} @ {event.home}
      </h2>
      <p class="muted" data-testid="event-facts">
        {[event.sport, event.league, event.isLive ? '' : formatTime(event.start)].filter((part) => part !== '').join(' · ')}
        {event.isLive && ' '}
        {event.isLive && <span class="badge live">Live</span>}
      </p>
      <h3>Line movement</h3>
      <label>
        Selection
        <select name="line" value={chosen?.key ?? ''} onChange={(e) => setLineKey((e.currentTarget as HTMLSelectElement).value)}>
          {lines.map((l) => (
            <option key={l.key} value={l.key}>
              {l.market} · {l.label}
            </option>
          ))}
        </select>
      </label>{' '}
      <button type="button" onClick={() => setBetting(true)} disabled={betting}>
        Log bet
      </button>
      {betting && chosen && (
        <LogBet
          key={chosen.key}
          drafts={[...chosen.byBook.values()].filter((r) => !r._suspended).map((r) => draftOf(r, `${event.away} @ ${event.home}`))}
          onClose={() => setBetting(false)}
        />
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {history === null && !error ? (
        <p role="status">Loading history…</p>
      ) : (
        <LineChart series={series} title={`Implied probability over time for ${chosen?.label ?? ''}, by sportsbook`} />
      )}
      <h3>All markets</h3>
      <div class="scroll">
        <EventTable event={event} books={bookColumns(me, rows)} format={format} caption="Every market and book of this event" />
      </div>
      <h3>Betting splits</h3>
      {splits === null ? (
        <p role="status">Loading…</p>
      ) : splits.length === 0 ? (
        <p class="muted">No splits for this event.</p>
      ) : (
        <table class="splits">
          <thead>
            <tr>
              <th scope="col">Book</th>
              <th scope="col">Market</th>
              <th scope="col">Bets (home/over)</th>
              <th scope="col">Handle (home/over)</th>
            </tr>
          </thead>
          <tbody>
            {splits.flatMap((s) =>
              (['spread', 'total', 'moneyline'] as const).flatMap((m) => {
                const b = s[m];
                if (!b) return [];
                return [
                  <tr key={`${s.sportsbook}-${m}`}>
                    <td>{s.sportsbook}</td>
                    <td>{m}</td>
                    <td>{pct(homeOrOver(b.bets_pct), 0)}</td>
                    <td>{pct(homeOrOver(b.handle_pct), 0)}</td>
                  </tr>,
                ];
              }),
            )}
          </tbody>
        </table>
      )}
      <h3>Game state</h3>
      {!me.features.gamestate.available ? (
        <p class="locked-panel">
          Live score and clock need the {me.features.gamestate.required_tier} tier; this key is {me.tier}.
        </p>
      ) : game === undefined ? (
        <p role="status">Loading…</p>
      ) : game === null ? (
        <p class="muted">No live game state for this event.</p>
      ) : (
        <p data-testid="gamestate">
          {[
            `${String(game['away_team'])} ${String(game['away_score'])} – ${String(game['home_score'])} ${String(game['home_team'])}`,
            [game['game_period'], game['game_clock']].filter((x) => x !== null && x !== undefined && x !== '').join(' '),
          ]
            .filter((part) => part !== '')
            .join(' · ')}
        </p>
      )}
    </section>
  );
}
