import { useState } from 'preact/hooks';
import { ApiFailure, api } from './api.js';
import type { BetRow } from './responses.js';
import { formatAmerican, formatLine } from './format.js';

/**
 * A bet as the screen offers to log it, copied from a price the bettor is looking at. The API
 * copies event, market, selection, line, book and price from the same odds row or +EV
 * opportunity (POST /bets), so what the form shows is what the ledger records.
 */
export interface BetDraft {
  from: { odds_row_id: string } | { opportunity_id: string };
  event: string;
  /** The market as the rows name it, and its id (which says whether a line is signed). */
  market: string;
  marketId: string;
  selection: string;
  line: unknown;
  book: string;
  oddsAmerican: number | null;
}

type Outcome = { state: 'editing' } | { state: 'sending' } | { state: 'failed'; message: string } | { state: 'logged'; bet: BetRow };

/**
 * The "Log bet" form: one draft, or one per book of a line (the bettor picks the book). Only the
 * stake is typed; the price can be changed to the one actually taken. A refusal (a bad stake,
 * a tier without the ledger, a price gone) shows the API's own message.
 */
export function LogBet({ drafts, onClose }: { drafts: readonly BetDraft[]; onClose: () => void }) {
  const [book, setBook] = useState(drafts[0]?.book ?? '');
  const draft = drafts.find((d) => d.book === book) ?? drafts[0];
  const [price, setPrice] = useState('');
  const [stake, setStake] = useState('');
  const [outcome, setOutcome] = useState<Outcome>({ state: 'editing' });
  if (!draft) return null;

  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setOutcome({ state: 'sending' });
    // An empty or unreadable stake goes as it is: the API names the field it refuses.
    const body: Record<string, unknown> = { ...draft.from, stake: stake === '' ? null : Number(stake) };
    if (price !== '') body['odds_american'] = Number(price);
    try {
      const r = await api<BetRow>('/bets', { method: 'POST', body: JSON.stringify(body) });
      setOutcome({ state: 'logged', bet: r.data });
    } catch (err) {
      setOutcome({ state: 'failed', message: err instanceof ApiFailure ? err.message : 'The server cannot be reached; try again.' });
    }
  };

  return (
    <form class="log-bet" aria-label="Log a bet" onSubmit={(e) => void submit(e)}>
      <p data-testid="bet-draft">
        <b>{draft.event}</b> · {draft.market} · {draft.selection}
        {formatLine(draft.line, draft.marketId) ? ` ${formatLine(draft.line, draft.marketId)}` : ''}
      </p>
      <div class="filters">
        {drafts.length > 1 ? (
          <label>
            Book
            <select name="bet_book" value={draft.book} onChange={(ev) => setBook(ev.currentTarget.value)}>
              {drafts.map((d) => (
                <option key={d.book} value={d.book}>
                  {d.book} {formatAmerican(d.oddsAmerican)}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <span>
            {draft.book} {formatAmerican(draft.oddsAmerican)}
          </span>
        )}
        <label>
          Price taken (American)
          <input
            name="bet_price"
            type="number"
            step="1"
            placeholder={formatAmerican(draft.oddsAmerican)}
            value={price}
            onInput={(ev) => setPrice(ev.currentTarget.value)}
          />
        </label>
        <label>
          Stake
          <input name="bet_stake" type="number" min="0" step="any" value={stake} onInput={(ev) => setStake(ev.currentTarget.value)} />
        </label>
        <button type="submit" disabled={outcome.state === 'sending'}>
          {outcome.state === 'sending' ? 'Logging…' : 'Log bet'}
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      {outcome.state === 'failed' && (
        <p class="error" role="alert" data-testid="bet-error">
          {outcome.message}
        </p>
      )}
      {outcome.state === 'logged' && (
        <p role="status" data-testid="bet-logged">
          Logged: {outcome.bet.stake} at {formatAmerican(outcome.bet.odds_american)} with {outcome.bet.sportsbook}.{' '}
          <a href="#/bets">My bets</a>
        </p>
      )}
    </form>
  );
}
