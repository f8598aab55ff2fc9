import { useEffect, useState } from 'preact/hooks';
import { ApiFailure, api } from './api.js';
import type { BetRow, BetSummary, SessionInfo } from './responses.js';
import { formatLine, formatPrice, formatTime, pct } from './format.js';
import type { OddsFormat } from './format.js';
import { profitCurve } from './profit-curve.js';
import { ProfitChart } from './profit-chart.js';

const PAGE = 25;
/** The API's largest page; the chart reads the ledger in pages of it. */
const CHART_PAGE = 500;
/** Enough for the Pro tier's whole ledger; beyond it the chart says it shows the newest. */
const CHART_MAX_PAGES = 20;

type Ledger =
  | { state: 'loading' }
  | { state: 'locked'; requiredTier: string }
  | { state: 'failed'; message: string }
  | { state: 'ready'; rows: BetRow[]; total: number; summary: BetSummary; graded: BetRow[]; truncated: boolean };

const money = (x: number | null | undefined): string => (typeof x === 'number' ? x.toFixed(2) : '–');

/** Every bet not pending, for the chart: the ledger read in large pages, newest first. */
async function gradedBets(): Promise<{ bets: BetRow[]; truncated: boolean }> {
  const bets: BetRow[] = [];
  for (let page = 0; page < CHART_MAX_PAGES; page++) {
    const r = await api<BetRow[]>(`/bets?limit=${CHART_PAGE}&offset=${page * CHART_PAGE}`);
    bets.push(...r.data);
    if (r.data.length < CHART_PAGE) return { bets: bets.filter((b) => b.status !== 'pending'), truncated: false };
  }
  return { bets: bets.filter((b) => b.status !== 'pending'), truncated: true };
}

/** The account's bet ledger: the bets with their grades, the totals, and profit against what CLV expected. */
export function MyBets({ me, format }: { me: SessionInfo; format: OddsFormat }) {
  const [offset, setOffset] = useState(0);
  const [ledger, setLedger] = useState<Ledger>({ state: 'loading' });
  const [version, setVersion] = useState(0);
  const [actionError, setActionError] = useState('');

  useEffect(() => {
    let current = true;
    Promise.all([api<BetRow[]>(`/bets?limit=${PAGE}&offset=${offset}`), api<BetSummary>('/bets/summary'), gradedBets()]).then(
      ([list, summary, chart]) => {
        if (!current) return;
        const total = Number(list.meta?.['total'] ?? list.data.length);
        setLedger({ state: 'ready', rows: list.data, total, summary: summary.data, graded: chart.bets, truncated: chart.truncated });
      },
      (e: unknown) => {
        if (!current) return;
        if (e instanceof ApiFailure && e.status === 403) setLedger({ state: 'locked', requiredTier: e.requiredTier ?? 'pro' });
        else setLedger({ state: 'failed', message: e instanceof ApiFailure ? e.message : 'The ledger cannot be loaded' });
      },
    );
    return () => {
      current = false;
    };
  }, [offset, version]);

  const remove = async (id: string): Promise<void> => {
    setActionError('');
    try {
      await api(`/bets/${encodeURIComponent(id)}`, { method: 'DELETE' });
      // The last bet of a page gone: step back a page.
      if (ledger.state === 'ready' && ledger.rows.length === 1 && offset > 0) setOffset(Math.max(0, offset - PAGE));
      setVersion((v) => v + 1);
    } catch (e) {
      setActionError(e instanceof ApiFailure ? e.message : 'The bet cannot be deleted; try again.');
    }
  };

  return (
    <section aria-labelledby="bets-title">
      <h2 id="bets-title">My bets</h2>
      {ledger.state === 'loading' && <p role="status">Loading…</p>}
      {ledger.state === 'failed' && (
        <p class="error" role="alert">
          {ledger.message}
        </p>
      )}
      {ledger.state === 'locked' && (
        <p class="locked-panel" data-testid="bets-locked">
          The bet ledger needs the {ledger.requiredTier} tier; this key is {me.tier}.
        </p>
      )}
      {ledger.state === 'ready' && (
        <>
          <Totals summary={ledger.summary} />
          <h3>Profit against closing-line value</h3>
          <p class="muted" id="expected-help">
            Expected profit of a bet is its stake times its no-vig CLV: stake × (fair closing probability × decimal price taken − 1). It is
            what the close says the bet was worth. The lines add up the graded and settled bets in the order their events started: profit
            counts once a bet is settled, expected profit once it has a fair close.
          </p>
          {ledger.truncated && <p class="muted">The chart shows the newest {CHART_PAGE * CHART_MAX_PAGES} bets.</p>}
          <ProfitChart points={profitCurve(ledger.graded)} />
          <h3>Bets</h3>
          {actionError && (
            <p class="error" role="alert">
              {actionError}
            </p>
          )}
          {ledger.total === 0 ? (
            <p class="muted" data-testid="bets-empty">
              No bets yet. Log one with <code>POST /api/v1/bets</code> or the MCP tool <code>log_bet</code>.
            </p>
          ) : (
            <BetTable rows={ledger.rows} format={format} onDelete={(id) => void remove(id)} />
          )}
          {ledger.total > PAGE && (
            <nav class="pager" aria-label="Pages of bets">
              <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
                Newer
              </button>
              <span data-testid="bets-page">
                {offset + 1}–{Math.min(offset + PAGE, ledger.total)} of {ledger.total}
              </span>
              <button type="button" disabled={offset + PAGE >= ledger.total} onClick={() => setOffset(offset + PAGE)}>
                Older
              </button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}

function Totals({ summary }: { summary: BetSummary }) {
  const t = summary.total;
  return (
    <dl class="totals" data-testid="bets-totals">
      <div>
        <dt>Bets</dt>
        <dd>{t.bets}</dd>
      </div>
      <div>
        <dt>Stake</dt>
        <dd>{money(t.stake)}</dd>
      </div>
      <div>
        <dt>Profit</dt>
        <dd>{money(t.profit)}</dd>
      </div>
      <div>
        <dt>ROI</dt>
        <dd>{pct(t.roi_percent)}</dd>
      </div>
      <div>
        <dt>Average CLV (no-vig)</dt>
        <dd>{pct(t.average_clv_percent)}</dd>
      </div>
      <div>
        <dt>Beat the close</dt>
        <dd>{t.beat_close_share === null ? '–' : pct(t.beat_close_share * 100, 0)}</dd>
      </div>
      <div>
        <dt>Expected profit</dt>
        <dd>{money(t.expected_profit)}</dd>
      </div>
    </dl>
  );
}

function BetTable({ rows, format, onDelete }: { rows: BetRow[]; format: OddsFormat; onDelete: (id: string) => void }) {
  return (
    <div class="scroll">
      <table class="bets">
        <caption class="sr-only">The account's bets, newest placed first</caption>
        <thead>
          <tr>
            <th scope="col">Placed</th>
            <th scope="col">Event</th>
            <th scope="col">Bet</th>
            <th scope="col">Book</th>
            <th scope="col">Price</th>
            <th scope="col">Stake</th>
            <th scope="col">Status</th>
            <th scope="col">CLV</th>
            <th scope="col">CLV no-vig</th>
            <th scope="col">Result</th>
            <th scope="col">Profit</th>
            <th scope="col">
              <span class="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((b) => (
            <tr key={b.id} data-bet-id={b.id}>
              <td>{formatTime(b.placed_at)}</td>
              <td>
                <a href={`#/event/${encodeURIComponent(b.event_id)}`}>{b.event_id}</a>
              </td>
              <td>
                {[b.market, b.participant, b.stat_category, b.selection, formatLine(b.line, b.market)]
                  .filter((part) => typeof part === 'string' && part !== '')
                  .join(' ')}
              </td>
              <td>{b.sportsbook}</td>
              <td class="num" data-testid="bet-price">
                {formatPrice({ odds_american: b.odds_american, odds_decimal: b.odds_decimal, probability: 1 / b.odds_decimal }, format)}
              </td>
              <td class="num">{money(b.stake)}</td>
              <td data-testid="bet-status">
                <span class={`bet-status bet-${b.status}`}>{b.status}</span>
                {b.placed_in_play && <span title="Placed in play: no close to beat"> · in play</span>}
              </td>
              <td class="num" data-testid="bet-clv">
                {pct(b.clv.price_clv_percent)}
              </td>
              <td class="num" data-testid="bet-clv-novig">
                {pct(b.clv.no_vig_clv_percent)}
              </td>
              <td data-testid="bet-result">{b.result ?? '–'}</td>
              <td class="num" data-testid="bet-profit">
                {money(b.profit)}
              </td>
              <td>
                <button type="button" onClick={() => onDelete(b.id)} aria-label={`Delete bet ${b.id}`}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
