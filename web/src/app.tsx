import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiFailure, onHeadroom, onUnauthorized, session } from './api.js';
import type { Headroom } from './api.js';
import type { SessionInfo } from './responses.js';
import { Board } from './board.js';
import { EventPage } from './event-page.js';
import type { OddsFormat } from './format.js';
import { LiveData, useLive } from './live.js';
import { MyBets } from './my-bets.js';
import { Opportunities } from './opportunities.js';

type Route = { page: 'board' } | { page: 'opportunities'; list: string } | { page: 'event'; id: string } | { page: 'bets' };

function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/');
  if (parts[0] === 'opportunities') return { page: 'opportunities', list: parts[1] ?? 'ev' };
  if (parts[0] === 'event' && parts[1]) return { page: 'event', id: decodeURIComponent(parts[1]) };
  if (parts[0] === 'bets') return { page: 'bets' };
  return { page: 'board' };
}

/** `make run` prints links with `#signin=<key>`: the key prefills the form and leaves the address bar at once. */
function takeKeyFromLink(): string {
  const m = /^#signin=([^&]+)/.exec(window.location.hash);
  if (!m?.[1]) return '';
  history.replaceState(null, '', `${window.location.pathname}#/board`);
  return decodeURIComponent(m[1]);
}

export function App() {
  const [me, setMe] = useState<SessionInfo | null | undefined>(undefined);
  const [route, setRoute] = useState<Route>(parseRoute(window.location.hash));
  const [format, setFormat] = useState<OddsFormat>(() => (localStorage.getItem('odds-format') as OddsFormat | null) ?? 'american');
  const [prefill] = useState(takeKeyFromLink);
  const [headroom, setHeadroom] = useState<Headroom | null>(null);
  const live = useMemo(() => new LiveData(() => void afterRefusal()), []);
  const start = (s: SessionInfo): void =>
    live.start(s.features.ev.available || s.features.arbitrage.available || s.features.middles.available);

  async function refreshSession(): Promise<void> {
    const current = await session.current().catch(() => null);
    setMe(current);
    if (current) start(current);
    else live.reset();
  }

  /** A stream was refused: signed out (back to the form), or only busy (open it again shortly). */
  async function afterRefusal(): Promise<void> {
    const current = await session.current().catch(() => undefined);
    if (current === null) {
      setMe(null);
      live.reset();
    } else live.retrySoon();
  }

  useEffect(() => {
    onUnauthorized(() => {
      setMe(null);
      live.reset();
    });
    const off = onHeadroom(setHeadroom);
    const onHash = (): void => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', onHash);
    void refreshSession();
    return () => {
      off();
      window.removeEventListener('hashchange', onHash);
      live.close();
    };
  }, []);

  useEffect(() => localStorage.setItem('odds-format', format), [format]);

  if (me === undefined)
    return (
      <p class="loading" role="status">
        Loading…
      </p>
    );
  if (me === null) {
    return (
      <SignIn
        prefill={prefill}
        onSignedIn={(s) => {
          setMe(s);
          start(s);
        }}
      />
    );
  }

  const signOut = async (): Promise<void> => {
    await session.signOut().catch(() => undefined);
    live.reset();
    setMe(null);
  };

  return (
    <div class="shell">
      <header class="top">
        <h1 class="brand">Odds screen</h1>
        <nav aria-label="Screens">
          <a href="#/board" aria-current={route.page === 'board' ? 'page' : undefined}>
            Board
          </a>
          <a href="#/opportunities/ev" aria-current={route.page === 'opportunities' ? 'page' : undefined}>
            Opportunities
          </a>
          <a href="#/bets" aria-current={route.page === 'bets' ? 'page' : undefined}>
            My bets
          </a>
        </nav>
        <label class="format">
          Odds
          <select value={format} onChange={(e) => setFormat((e.currentTarget as HTMLSelectElement).value as OddsFormat)}>
            <option value="american">American</option>
            <option value="decimal">Decimal</option>
            <option value="probability">Probability</option>
          </select>
        </label>
        <span class="who">
          <span class={`tier tier-${me.tier}`} data-testid="tier">
            {me.tier}
          </span>
          <button type="button" onClick={() => void signOut()}>
            Sign out
          </button>
        </span>
      </header>
      <StatusBar live={live} me={me} headroom={headroom} streamed={route.page !== 'bets'} />
      <main>
        {route.page === 'board' && <Board live={live} me={me} format={format} />}
        {route.page === 'opportunities' && <Opportunities live={live} me={me} list={route.list} />}
        {route.page === 'event' && <EventPage live={live} me={me} id={route.id} format={format} />}
        {route.page === 'bets' && <MyBets me={me} format={format} />}
      </main>
    </div>
  );
}

const STATE_LABEL = {
  idle: 'not open',
  connecting: 'connecting',
  live: 'live',
  reconnecting: 'reconnecting',
  resynced: 'resynced',
  closed: 'closed',
} as const;

/** `streamed`: the page shown reads the streams (My bets reads the API alone, so their state is not its news). */
function StatusBar({ live, me, headroom, streamed }: { live: LiveData; me: SessionInfo; headroom: Headroom | null; streamed: boolean }) {
  useLive(live);
  const [, tick] = useState(0);
  useEffect(() => {
    const t = setInterval(() => tick((x) => x + 1), 1000);
    return () => clearInterval(t);
  }, []);
  const age = live.lastFrameAt > 0 ? Math.round((Date.now() - live.lastFrameAt) / 1000) : null;
  return (
    <div class="status" role="status" aria-live="polite">
      {streamed ? (
        <span class={`conn conn-${live.state}`} data-testid="stream-state">
          <span class="dot" aria-hidden="true" /> Stream: {STATE_LABEL[live.state]}
        </span>
      ) : (
        <span class="conn conn-idle" data-testid="stream-state">
          <span class="dot" aria-hidden="true" /> Stream: not used on this page
        </span>
      )}
      <span data-testid="delay">Data delay: {me.data_delay_seconds > 0 ? `${me.data_delay_seconds} s (${me.tier} tier)` : 'none'}</span>
      <span data-testid="headroom">
        {headroom
          ? `Requests left: ${headroom.remaining} / ${headroom.limit} this minute`
          : `Request limit: ${me.requests_per_minute} a minute`}
      </span>
      {streamed && age !== null && <span class="muted">last frame {age} s ago</span>}
    </div>
  );
}

function SignIn({ prefill, onSignedIn }: { prefill: string; onSignedIn: (s: SessionInfo) => void }) {
  const [key, setKey] = useState(prefill);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      const s = await session.signIn(key);
      setKey('');
      onSignedIn(s);
    } catch (err) {
      setError(err instanceof ApiFailure ? err.message : 'The server cannot be reached; try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="signin">
      <h1>Odds screen</h1>
      <form onSubmit={(e) => void submit(e)} aria-describedby="signin-help">
        <label for="api-key">API key</label>
        <input
          id="api-key"
          name="api_key"
          type="password"
          autocomplete="off"
          required
          value={key}
          onInput={(e) => setKey((e.currentTarget as HTMLInputElement).value)}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={error ? 'signin-error' : undefined}
        />
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        {error && (
          <p id="signin-error" class="error" role="alert">
            {error}
          </p>
        )}
        <p id="signin-help" class="muted">
          The key is sent once and exchanged for a session cookie this page cannot read. <code>make run</code> prints a sign-in link per
          demo tier.
        </p>
      </form>
    </main>
  );
}
