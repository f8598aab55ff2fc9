import { useEffect, useState } from 'preact/hooks';
import { ApiFailure, api } from './api.js';
import type { Row } from './api.js';
import { DEVIG_METHOD_CHOICES } from './responses.js';
import type { DevigMethod, OpportunityRow, SessionInfo } from './responses.js';
import { formatAmerican, formatLine, pct } from './format.js';
import { InputField, SelectField } from './filter-fields.js';
import { LogBet } from './log-bet.js';
import type { BetDraft } from './log-bet.js';
import { LISTS, STREAM_THRESHOLDS, useLive } from './live.js';
import type { ListName, LiveData } from './live.js';
import { doubtsOf, isActionable, warningsOf } from './trust.js';

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

/** A +EV row's EV: by the recipe when one re-priced it (efficient_shin, goto), else by the stored method. */
const evOf = (r: Row): number | null => num(r['recipe_ev']) ?? num(r['ev_percentage']);

/** The figure each list is filtered and sorted by. */
function valueOf(list: ListName, r: Row): number {
  if (list === 'ev') return evOf(r) ?? 0;
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

function query(list: ListName, f: Filters, suspicious: boolean): string {
  const p = new URLSearchParams({ limit: '200' });
  if (suspicious) p.set('include', 'suspicious');
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
  const [showAll, setShowAll] = useState(false);
  const [betting, setBetting] = useState<BetDraft | null>(null);
  useEffect(() => live.setSuspicious(showAll), [showAll]);
  // The other screens read the default lists.
  useEffect(() => () => live.setSuspicious(false), []);
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
      api<OpportunityRow[]>(query(list, filters, showAll)).then(
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
  }, [list, fromStream, filters.threshold, filters.devig, filters.books, filters.maxAge, feature.available, showAll]);

  const listed = fromStream ? [...live.lists[list].values()].filter((r) => passes(list, r, filters)) : (polled ?? []);
  // Actionable rows by default; "show all" brings back the stale ones and (from the API) the suspicious ones.
  const rows = listed.filter((r) => showAll || isActionable(r)).sort((a, b) => valueOf(list, b) - valueOf(list, a));
  const hidden = listed.length - rows.length;
  const set =
    (k: keyof Filters) =>
    (value: string): void =>
      setFilters({ ...filters, [k]: value });

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
            <InputField
              label={list === 'ev' || list === 'middles' ? 'Min EV %' : list === 'arbitrage' ? 'Min profit %' : 'Max hold %'}
              name="threshold"
              type="number"
              step="0.1"
              placeholder={floor !== null ? String(floor) : ''}
              value={filters.threshold}
              onValue={set('threshold')}
            />
            {list === 'ev' && (
              <SelectField label="De-vig method" name="devig" value={filters.devig} choices={DEVIG_METHOD_CHOICES} onValue={set('devig')} />
            )}
            <InputField
              label="Books"
              name="books"
              type="text"
              placeholder={me.sportsbooks.slice(0, 3).join(',')}
              value={filters.books}
              onValue={set('books')}
            />
            <InputField label="Max odds age (s)" name="max_age" type="number" min="0" value={filters.maxAge} onValue={set('maxAge')} />
            {list === 'arbitrage' && (
              <InputField label="Bankroll" name="bankroll" type="number" min="0" step="1" value={bankroll} onValue={setBankroll} />
            )}
            <label class="toggle">
              <input
                name="show_all"
                type="checkbox"
                checked={showAll}
                onChange={(e) => setShowAll((e.currentTarget as HTMLInputElement).checked)}
              />
              Show all (stale and suspicious too)
            </label>
          </form>
          <p class="muted" data-testid="opp-source">
            {fromStream
              ? `Live from the stream${floor !== null ? ` (from ${floor} %)` : ''}.`
              : `Refreshed from the API every ${POLL_MS / 1000} s: the stream computes with ${STREAM_DEVIG}${floor !== null ? ` from ${floor} %` : ''}.`}{' '}
            {rows.length} rows{showAll ? ', stale and suspicious ones marked' : hidden > 0 ? `; ${hidden} stale hidden` : ''}.
          </p>
          {error && (
            <p class="error" role="alert">
              {error}
            </p>
          )}
          {betting && <LogBet key={JSON.stringify(betting.from)} drafts={[betting]} onClose={() => setBetting(null)} />}
          <div class="scroll">
            <OppTable list={list} rows={rows} bankroll={Number(bankroll) || 0} onLogBet={setBetting} />
          </div>
        </>
      )}
    </section>
  );
}

/** The age of the oldest price, and what makes the row doubtful when it is (shown only with "show all"). */
function Trust({ r }: { r: Row }) {
  const doubts = doubtsOf(r);
  const warnings = warningsOf(r);
  const age = ageOf(r);
  const ageText = age !== null ? `${age.toFixed(0)} s` : '';
  if (doubts.length === 0) return <span class="muted">{ageText}</span>;
  return (
    <span class="stale" title={warnings.join('; ')} data-testid="doubt">
      ⚠ {doubts.map((d) => (d === 'stale' ? 'possibly stale' : 'suspicious')).join(', ')} {ageText}
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

/** A bet on a +EV row's price: the API copies it from the opportunity. */
const draftOf = (r: Row): BetDraft => ({
  from: { opportunity_id: String(r['id']) },
  event: String(r['event_name'] ?? r['event_id']),
  market: String(r['market_type'] ?? r['market'] ?? ''),
  marketId: String(r['market'] ?? ''),
  selection: String(r['selection_name'] ?? r['selection'] ?? ''),
  line: r['line'],
  book: String(r['sportsbook']),
  oddsAmerican: num(r['odds_american']),
});

function OppTable({
  list,
  rows,
  bankroll,
  onLogBet,
}: {
  list: ListName;
  rows: Row[];
  bankroll: number;
  onLogBet: (draft: BetDraft) => void;
}) {
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
          {list === 'ev' && <th scope="col">Confidence</th>}
          <th scope="col">Age</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr
            key={String(r['id'])}
            data-opp-id={String(r['id'])}
            data-doubt={doubtsOf(r).join(' ') || undefined}
            class={isActionable(r) ? undefined : 'doubtful'}
          >
            <td>
              <a href={`#/event/${encodeURIComponent(String(r['event_id']))}`}>{String(r['event_name'] ?? r['event_id'])}</a>
              {r['is_live'] === true && <span class="badge live">Live</span>}
            </td>
            <td>{String(r['market_type'] ?? r['market'] ?? '')}</td>
            <td>
              {list === 'ev' ? (
                <span>
                  <b>{String(r['sportsbook'])}</b> {String(r['selection_name'] ?? r['selection'] ?? '')} {formatLine(r['line'])}{' '}
                  {formatAmerican(num(r['odds_american']))}{' '}
                  <button type="button" class="small" onClick={() => onLogBet(draftOf(r))}>
                    Log bet
                  </button>
                </span>
              ) : (
                <Legs r={r} {...(list === 'arbitrage' ? { bankroll } : {})} />
              )}
            </td>
            <td class="num">
              {list === 'ev' && pct(evOf(r))}
              {list === 'arbitrage' && pct(r['profit_percent'])}
              {list === 'middles' && `${pct(r['ev_percentage'] ?? r['roi_percentage'])} · ${String(r['middle_size'] ?? '')} pts`}
              {list === 'low_hold' && pct(r['hold_percentage'])}
            </td>
            {list === 'arbitrage' && (
              <td class="num" data-testid="payout">
                {(bankroll * (1 + (num(r['profit_percent']) ?? 0) / 100)).toFixed(2)}
              </td>
            )}
            {list === 'ev' && (
              <td class="num" data-testid="confidence">
                {num(r['confidence_score'])?.toFixed(0) ?? '–'}
              </td>
            )}
            <td>
              <Trust r={r} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
