import { useEffect, useState } from 'preact/hooks';
import { api } from './api.js';
import type { ReferenceItem, SessionInfo } from './responses.js';
import { formatLine, formatPrice, formatTime } from './format.js';
import { InputField, SelectField } from './filter-fields.js';
import type { OddsFormat } from './format.js';
import type { LiveData, LiveOdds } from './live.js';
import { useLive } from './live.js';

export interface EventGroup {
  id: string;
  sport: string;
  league: string;
  home: string;
  away: string;
  start: string;
  isLive: boolean;
  rows: LiveOdds[];
}

/** Events of the board, by start time, each with its rows. */
export function groupEvents(rows: Iterable<LiveOdds>): EventGroup[] {
  const events = new Map<string, EventGroup>();
  for (const r of rows) {
    let e = events.get(r.event_id);
    if (!e) {
      e = {
        id: r.event_id,
        sport: String(r['sport']),
        league: String(r['league']),
        home: String(r['home_team']),
        away: String(r['away_team']),
        start: String(r['event_start_time']),
        isLive: r['is_live'] === true,
        rows: [],
      };
      events.set(r.event_id, e);
    }
    if (r['is_live'] === true) e.isLive = true;
    e.rows.push(r);
  }
  return [...events.values()].sort((a, b) => a.start.localeCompare(b.start) || a.id.localeCompare(b.id));
}

export interface BookColumn {
  id: string;
  /** The display name the rows carry (`sportsbook_name`), the id when a row has none. */
  name: string;
}

/** The books to show as columns: the tier's set first (the session says which), then any other. */
export function bookColumns(me: SessionInfo, rows: readonly LiveOdds[]): BookColumn[] {
  const names = new Map<string, string>();
  for (const r of rows) if (!names.has(r.sportsbook)) names.set(r.sportsbook, String(r['sportsbook_name'] ?? r.sportsbook));
  const ids = [...me.sportsbooks.filter((b) => names.has(b)), ...[...names.keys()].filter((b) => !me.sportsbooks.includes(b)).sort()];
  return ids.map((id) => ({ id, name: names.get(id) ?? id }));
}

export interface Line {
  key: string;
  /** The market id (`moneyline`, `1st_half`). */
  marketId: string;
  /** The market as the rows name it (`market_type`). */
  market: string;
  label: string;
  /** The books' main line of the market, not an alternate. */
  main: boolean;
  byBook: Map<string, LiveOdds>;
  best: number;
}

/** The full-game markets an event page opens on, in this order. */
const OPENING_MARKETS = ['moneyline', 'point_spread', 'total_points'];

/** The line a page shows first: a full-game main market's main line, rather than whatever sorts first (a period alternate). */
export function openingLine(lines: readonly Line[]): Line | undefined {
  for (const market of OPENING_MARKETS) {
    const line = lines.find((l) => l.marketId === market && l.main);
    if (line) return line;
  }
  return lines.find((l) => l.main) ?? lines[0];
}

/** One line per market, participant, line and side; the best open price of the line marked. */
export function linesOf(rows: readonly LiveOdds[]): Line[] {
  const lines = new Map<string, Line>();
  for (const r of rows) {
    const key = [r.market, r['participant'] ?? '', r['stat_category'] ?? '', r['line'] ?? '', r['selection_type'] ?? r.selection].join('|');
    let l = lines.get(key);
    if (!l) {
      const line = formatLine(r['line'], r.market);
      l = {
        key,
        marketId: r.market,
        market: String(r['market_type'] ?? r.market),
        label: `${r.selection}${line ? ` ${line}` : ''}`,
        main: false,
        byBook: new Map(),
        best: 0,
      };
      lines.set(key, l);
    }
    l.byBook.set(r.sportsbook, r);
    if (r['is_main_line'] === true) l.main = true;
    if (!r._suspended && r.odds_decimal > l.best) l.best = r.odds_decimal;
  }
  return [...lines.values()].sort((a, b) => a.key.localeCompare(b.key));
}

export function PriceCell({ row, best, format }: { row: LiveOdds | undefined; best: number; format: OddsFormat }) {
  if (!row)
    return (
      <td class="price empty" aria-label="no price">
        –
      </td>
    );
  const isBest = !row._suspended && row.odds_decimal === best;
  const cls = ['price', isBest ? 'best' : '', row._suspended ? 'suspended' : '', row._v > 0 ? 'flash' : ''].filter(Boolean).join(' ');
  return (
    // The key changes with every update, so the cell is a new element and its flash animation runs again.
    <td
      key={`${row.id}:${row._v}`}
      class={cls}
      data-odds-id={row.id}
      data-state={row._suspended ? 'suspended' : 'open'}
      title={
        row._suspended
          ? 'Suspended by the book'
          : `${row['sportsbook_name'] ?? row.sportsbook} · ${row['timestamp'] ?? ''}${isBest ? ' · best price' : ''}`
      }
    >
      {formatPrice(row, format)}
      {row._suspended && <span class="sr-only"> (suspended)</span>}
      {isBest && <span class="sr-only"> (best)</span>}
    </td>
  );
}

export function EventTable({
  event,
  books,
  format,
  caption,
}: {
  event: EventGroup;
  books: readonly BookColumn[];
  format: OddsFormat;
  caption: string;
}) {
  const lines = linesOf(event.rows);
  return (
    <table class="odds">
      <caption class="sr-only">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Market</th>
          <th scope="col">Selection</th>
          {books.map((b) => (
            <th scope="col" key={b.id} data-book={b.id}>
              {b.name}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {lines.map((l) => (
          <tr key={l.key}>
            <td class="market">{l.market}</td>
            <th scope="row">{l.label}</th>
            {books.map((b) => (
              <PriceCell key={b.id} row={l.byBook.get(b.id)} best={l.best} format={format} />
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const PAGE = 40;

/** Ids of a reference list (/sports, /leagues, /markets), for the filter menus. */
function useIds(path: string): string[] {
  const [ids, setIds] = useState<string[]>([]);
  useEffect(() => {
    api<ReferenceItem[]>(`${path}${path.includes('?') ? '&' : '?'}limit=200`).then(
      (r) => setIds(r.data.map((x) => x.id).sort()),
      () => setIds([]),
    );
  }, [path]);
  return ids;
}

export function Board({ live, me, format }: { live: LiveData; me: SessionInfo; format: OddsFormat }) {
  useLive(live);
  const [sport, setSport] = useState('');
  const [league, setLeague] = useState('');
  const [market, setMarket] = useState('moneyline');
  const [when, setWhen] = useState<'all' | 'live' | 'pre'>('all');
  const [team, setTeam] = useState('');
  const [shown, setShown] = useState(PAGE);

  // Sport, league and market are stream filters: the server sends only what the board shows.
  useEffect(() => live.setOddsSpec({ sport, league, market }), [sport, league, market]);
  const sports = useIds('/sports');
  const leagues = useIds(`/leagues${sport ? `?sport=${encodeURIComponent(sport)}` : ''}`);
  const markets = useIds('/markets');
  const all = [...live.odds.values()];
  const needle = team.trim().toLowerCase();
  const rows = all.filter(
    (r) => (!sport || r['sport'] === sport) && (!league || r['league'] === league) && (!market || r.market === market),
  );
  const events = groupEvents(rows).filter(
    (e) =>
      (when === 'all' || (when === 'live') === e.isLive) &&
      (!needle || e.home.toLowerCase().includes(needle) || e.away.toLowerCase().includes(needle)),
  );
  const visible = events.slice(0, shown);
  const books = bookColumns(me, rows);

  return (
    <section aria-labelledby="board-title">
      <h2 id="board-title">Board</h2>
      <form class="filters" onSubmit={(e) => e.preventDefault()} aria-label="Board filters">
        <SelectField
          label="Sport"
          name="sport"
          value={sport}
          choices={sports}
          anyLabel="All sports"
          onValue={(v) => {
            setSport(v);
            setLeague('');
          }}
        />
        <SelectField label="League" name="league" value={league} choices={leagues} anyLabel="All leagues" onValue={setLeague} />
        <SelectField
          label="Market"
          name="market"
          value={market}
          choices={markets.includes(market) || !market ? markets : [market, ...markets]}
          anyLabel="All markets"
          onValue={setMarket}
        />
        <label>
          When
          <select
            name="when"
            value={when}
            onChange={(e) => setWhen((e.currentTarget as HTMLSelectElement).value as 'all' | 'live' | 'pre')}
          >
            <option value="all">Live and pre-match</option>
            <option value="live">Live</option>
            <option value="pre">Pre-match</option>
          </select>
        </label>
        <InputField label="Team" name="team" type="search" placeholder="Search a team" value={team} onValue={setTeam} />
      </form>
      {!live.snapshotComplete && <p role="status">Loading the board…</p>}
      {live.snapshotComplete && events.length === 0 && <p>No events match these filters.</p>}
      <p class="muted" data-testid="board-count">
        {events.length} events · {rows.filter((r) => !r._suspended).length} prices
      </p>
      {visible.map((e) => (
        <article class="event" key={e.id} data-event-id={e.id} data-sport={e.sport}>
          <header>
            <span class="league">
              {e.sport} · {e.league}
            </span>
            <h3>
              <a href={`#/event/${encodeURIComponent(e.id)}`}>
                {e.away} @ {e.home}
              </a>
            </h3>
            {e.isLive ? <span class="badge live">Live</span> : <span class="muted">{formatTime(e.start)}</span>}
          </header>
          <div class="scroll">
            <EventTable event={e} books={books} format={format} caption={`${e.away} at ${e.home}: prices by sportsbook`} />
          </div>
        </article>
      ))}
      {events.length > shown && (
        <button type="button" onClick={() => setShown(shown + PAGE)}>
          Show more events ({events.length - shown} more)
        </button>
      )}
    </section>
  );
}
