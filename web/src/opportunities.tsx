import { useEffect, useState } from 'preact/hooks';
import { ApiFailure, api } from './api.js';
import type { Row } from './api.js';
import { DEVIG_METHOD_CHOICES } from './responses.js';
import type { DevigMethod, OpportunityRow, SessionInfo } from './responses.js';
import { formatAmerican, formatLine, pct } from './format.js';
import { LISTS, STREAM_THRESHOLDS, useLive } from './live.js';
import type { ListName, LiveData } from './live.js';

const TITLES: Record<ListName, string> = { ev: '+EV', arbitrage: 'Arbitrage', middles: 'Middles', low_hold: 'Low hold' };
const PATHS: Record<ListName, string> = {
  ev: '/opportunities/ev',
  arbitrage: '/opportunities/arbitrage',
  middles: '/opportunities/middles',
  low_hold: '/opportunities/low_hold',
};
/** The stream's lists are computed with these (docs/api.md, Streams); other choices are polled from REST. */
const STREAM_DEVIG: DevigMethod = 'power';
const POLL_MS = 10_000;

interface Filters {
  threshold: string;
  devig: DevigMethod;
  books: string;
  maxAge: string;
}

const num = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);
const legsOf = (r: Row): Row[] => (Array.isArray(r['legs']) ? (r['legs'] as Row[]) : []);
const booksOf = (r: Row): string[] =>
  legsOf(r).length > 0 ? legsOf(r).map((l) => String(l['sportsbook'] ?? l['book'])) : [String(r['sportsbook'])];
const ageOf = (r: Row): number | null => num(r['oldest_odds_age_seconds']) ?? num(r['odds_age_seconds']);

/** The figure each list is filtered and sorted by. */
function valueOf(list: ListName, r: Row): number {
  if (list === 'ev') return num(r['ev_percentage']) ?? 0;
  if (list === 'arbitrage') return num(r['profit_percent']) ?? 0;
  if (list === 'middles') return num(r['ev_percentage']) ?? num(r['roi_percentage']) ?? 0;
  return -(num(r['hold_percentage']) ?? 0);
}

/** The API's own filters, applied to the stream's rows the same way the REST route applies them. */
function passes(list: ListName, r: Row, f: Filters): boolean {
  const threshold = Number(f.threshold);
  if (f.threshold !== '' && Number.isFinite(threshold)) {
    if (list === 'low_hold' ? (num(r['hold_percentage']) ?? 0) > threshold : valueOf(list, r) < threshold) return false;
  }
  const books = f.books
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean);
  if (books.length > 0 && !booksOf(r).every((b) => books.includes(b))) return false;
  const maxAge = Number(f.maxAge);
  const age = ageOf(r);
  if (f.maxAge !== '' && Number.isFinite(maxAge) && age !== null && age > maxAge) return false;
  return true;
}

function query(list: ListName, f: Filters): string {
  const p = new URLSearchParams({ limit: '200' });
  if (f.threshold !== '')
    p.set(list === 'ev' ? 'min_ev' : list === 'arbitrage' ? 'min_profit' : list === 'low_hold' ? 'max_hold' : 'min_ev', f.threshold);
  if (list === 'ev') p.set('devig_method', f.devig);
  if (f.books.trim() !== '') p.set('sportsbook', f.books.replace(/\s+/g, ''));
  if (f.maxAge !== '') p.set('max_odds_age', f.maxAge);
  return `${PATHS[list]}?${p.toString()}`;
}

export function Opportunities({ live, me, list: asked }: { live: LiveData; me: SessionInfo; list: string }) {
  useLive(live);
  const list: ListName = (LISTS as readonly string[]).includes(asked) ? (asked as ListName) : 'ev';
  const feature = me.features[list];
  const [filters, setFilters] = useState<Filters>({ threshold: '', devig: STREAM_DEVIG, books: '', maxAge: '' });
  // The stream carries +EV from 2 % and arbitrage from 0.5 % (its defaults); a looser threshold is read from REST.
  const floor = list === 'ev' ? STREAM_THRESHOLDS.ev : list === 'arbitrage' ? STREAM_THRESHOLDS.arbitrage : null;
  const looser = floor !== null && filters.threshold !== '' && Number(filters.threshold) < floor;
  const [bankroll, setBankroll] = useState('100');
  const [polled, setPolled] = useState<OpportunityRow[] | null>(null);
  const [error, setError] = useState('');
  const fromStream = (list !== 'ev' || filters.devig === STREAM_DEVIG) && !looser;

  useEffect(() => {
    setPolled(null);
    setError('');
    if (!feature.available || fromStream) return;
    let stop = false;
    const load = (): void => {
      api<OpportunityRow[]>(query(list, filters)).then(
        (r) => !stop && setPolled(r.data),
        (e: unknown) => !stop && setError(e instanceof ApiFailure ? e.message : 'The server cannot be reached'),
      );
    };
    load();
    const t = setInterval(load, POLL_MS);
    return () => {
      stop = true;
      clearInterval(t);
    };
  }, [list, fromStream, filters.threshold, filters.devig, filters.books, filters.maxAge, feature.available]);

  const rows = (fromStream ? [...live.lists[list].values()].filter((r) => passes(list, r, filters)) : (polled ?? [])).sort(
    (a, b) => valueOf(list, b) - valueOf(list, a),
  );
  const set = (k: keyof Filters) => (e: Event) => setFilters({ ...filters, [k]: (e.currentTarget as HTMLInputElement).value });

  return (
    <section aria-labelledby="opp-title">
      <h2 id="opp-title">Opportunities</h2>
      <nav class="tabs" aria-label="Opportunity lists">
        {LISTS.map((l) => (
          <a
            key={l}
            href={`#/opportunities/${l}`}
            aria-current={l === list ? 'page' : undefined}
            class={me.features[l].available ? '' : 'locked'}
            data-testid={`tab-${l}`}
          >
            {TITLES[l]}
            {!me.features[l].available && (
              <span class="lock">
                {' '}
                · <span class="sr-only">locked, needs </span>
                {me.features[l].required_tier}+
              </span>
            )}
          </a>
        ))}
      </nav>
      {!feature.available ? (
        <div class="locked-panel" data-testid="locked">
          <p>
            <strong>
              {TITLES[list]} needs the {feature.required_tier} tier or higher.
            </strong>{' '}
            This key is {me.tier}.
          </p>
          <p class="muted">Upgrade the key (or sign in with a {feature.required_tier} key) to see this list live.</p>
        </div>
      ) : (
        <>
          <form class="filters" onSubmit={(e) => e.preventDefault()} aria-label={`${TITLES[list]} filters`}>
            <label>
              {list === 'ev' ? 'Min EV %' : list === 'arbitrage' ? 'Min profit %' : list === 'low_hold' ? 'Max hold %' : 'Min EV %'}
              <input
                name="threshold"
                type="number"
                step="0.1"
                placeholder={floor !== null ? String(floor) : ''}
                value={filters.threshold}
                onInput={set('threshold')}
              />
            </label>
            {list === 'ev' && (
              <label>
                De-vig method
                <select name="devig" value={filters.devig} onChange={set('devig')}>
                  {DEVIG_METHOD_CHOICES.map((d) => (
                    <option key={d} value={d}>
                      {d}
                    </option>
                  ))}
                </select>
              </label>
            )}
            <label>
              Books
              <input
                name="books"
                type="text"
                placeholder={me.sportsbooks.slice(0, 3).join(',')}
                value={filters.books}
                onInput={set('books')}
              />
            </label>
            <label>
              Max odds age (s)
              <input name="max_age" type="number" min="0" value={filters.maxAge} onInput={set('maxAge')} />
            </label>
            {list === 'arbitrage' && (
              <label>
                Bankroll
                <input
                  name="bankroll"
                  type="number"
                  min="0"
                  step="1"
                  value={bankroll}
                  onInput={(e) => setBankroll((e.currentTarget as HTMLInputElement).value)}
                />
              </label>
            )}
          </form>
          <p class="muted" data-testid="opp-source">
            {fromStream
              ? `Live from the stream${floor !== null ? ` (from ${floor} %)` : ''}.`
              : `Refreshed from the API every ${POLL_MS / 1000} s: the stream computes with ${STREAM_DEVIG}${floor !== null ? ` from ${floor} %` : ''}.`}{' '}
            {rows.length} rows.
          </p>
          {error && (
            <p class="error" role="alert">
              {error}
            </p>
          )}
          <div class="scroll">
            <OppTable list={list} rows={rows} bankroll={Number(bankroll) || 0} />
          </div>
        </>
      )}
    </section>
  );
}

function Stale({ r }: { r: Row }) {
  const warnings = Array.isArray(r['warnings']) ? (r['warnings'] as string[]) : [];
  const age = ageOf(r);
  if (r['possibly_stale'] !== true && warnings.length === 0) return <span class="muted">{age !== null ? `${age.toFixed(0)} s` : ''}</span>;
  return (
    <span class="stale" title={warnings.join('; ')} data-testid="stale">
      ⚠ {r['possibly_stale'] === true ? 'possibly stale' : ''}
      {age !== null ? ` ${age.toFixed(0)} s` : ''}
      {warnings.length > 0 && <span class="sr-only">: {warnings.join('; ')}</span>}
    </span>
  );
}

function Legs({ r, bankroll }: { r: Row; bankroll?: number }) {
  return (
    <ul class="legs">
      {legsOf(r).map((l, i) => {
        const stake =
          bankroll !== undefined && typeof l['stake_percent'] === 'number' ? (bankroll * (l['stake_percent'] as number)) / 100 : null;
        return (
          <li key={i}>
            <b>{String(l['sportsbook'] ?? l['book'])}</b> {String(l['selection_name'] ?? l['selection'] ?? '')} {formatLine(l['line'])}{' '}
            {formatAmerican(num(l['odds_american']))}
            {stake !== null && (
              <span class="stake" data-testid="stake">
                {' '}
                · stake {stake.toFixed(2)}
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}

function OppTable({ list, rows, bankroll }: { list: ListName; rows: Row[]; bankroll: number }) {
  if (rows.length === 0) return <p>No {TITLES[list]} opportunities match right now.</p>;
  return (
    <table class="opps" data-list={list}>
      <thead>
        <tr>
          <th scope="col">Event</th>
          <th scope="col">Market</th>
          <th scope="col">{list === 'ev' ? 'Bet' : 'Legs'}</th>
          <th scope="col">{list === 'ev' ? 'EV' : list === 'arbitrage' ? 'Profit' : list === 'middles' ? 'EV / window' : 'Hold'}</th>
          {list === 'arbitrage' && <th scope="col">Payout</th>}
          <th scope="col">Age</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={String(r['id'])} data-opp-id={String(r['id'])}>
            <td>
              <a href={`#/event/${encodeURIComponent(String(r['event_id']))}`}>{String(r['event_name'] ?? r['event_id'])}</a>
              {r['is_live'] === true && <span class="badge live">Live</span>}
            </td>
            <td>{String(r['market_type'] ?? r['market'] ?? '')}</td>
            <td>
              {list === 'ev' ? (
                <span>
                  <b>{String(r['sportsbook'])}</b> {String(r['selection_name'] ?? r['selection'] ?? '')} {formatLine(r['line'])}{' '}
                  {formatAmerican(num(r['odds_american']))}
                </span>
              ) : (
                <Legs r={r} {...(list === 'arbitrage' ? { bankroll } : {})} />
              )}
            </td>
            <td class="num">
              {list === 'ev' && pct(r['ev_percentage'])}
              {list === 'arbitrage' && pct(r['profit_percent'])}
              {list === 'middles' && `${pct(r['ev_percentage'] ?? r['roi_percentage'])} · ${String(r['middle_size'] ?? '')} pts`}
              {list === 'low_hold' && pct(r['hold_percentage'])}
            </td>
            {list === 'arbitrage' && (
              <td class="num" data-testid="payout">
                {(bankroll * (1 + (num(r['profit_percent']) ?? 0) / 100)).toFixed(2)}
              </td>
            )}
            <td>
              <Stale r={r} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
