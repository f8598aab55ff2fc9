/** Address of a wildcard listener (`0.0.0.0`, `::`) that a client on this machine can open. */
function reachable(listenUrl: string): string {
  const url = new URL(listenUrl);
  if (url.hostname === '0.0.0.0' || url.hostname === '[::]') url.hostname = 'localhost';
  return url.origin;
}

/**
 * The origin every `deep_link` URL starts with: PUBLIC_BASE_URL when configured; otherwise the
 * address the server listens on, which is known only once it listens (PORT=0 picks a free port),
 * so the composition root tells it then. Until then (an app that never listens, as in tests
 * that inject requests) it is the default listen address.
 */
export class PublicOrigin {
  private current: string;

  constructor(
    private readonly configured: string | null = null,
    fallback = 'http://127.0.0.1:8080',
  ) {
    this.current = reachable(configured ?? fallback);
  }

  get origin(): string {
    return this.current;
  }

  /** The server listens at `url`: links use it unless PUBLIC_BASE_URL says otherwise. */
  listeningAt(url: string): void {
    if (this.configured === null) this.current = reachable(url);
  }
}
