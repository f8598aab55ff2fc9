import { describe, expect, it } from 'vitest';
import { PublicOrigin } from './public-origin.js';

describe('the public origin of deep links', () => {
  it('is PUBLIC_BASE_URL when configured, whatever address the server listens on', () => {
    const origin = new PublicOrigin('https://odds.example.com/', 'http://127.0.0.1:8080');
    origin.listeningAt('http://127.0.0.1:41234');
    expect(origin.origin).toBe('https://odds.example.com');
  });

  it('is the listen address otherwise, learned when the server listens (PORT=0 picks the port then)', () => {
    const origin = new PublicOrigin(null, 'http://127.0.0.1:0');
    expect(origin.origin).toBe('http://127.0.0.1:0');
    origin.listeningAt('http://127.0.0.1:41234');
    expect(origin.origin).toBe('http://127.0.0.1:41234');
  });

  it('names localhost for a wildcard listen address, which no client can open', () => {
    expect(new PublicOrigin(null, 'http://0.0.0.0:8080').origin).toBe('http://localhost:8080');
    const v6 = new PublicOrigin();
    v6.listeningAt('http://[::]:9000');
    expect(v6.origin).toBe('http://localhost:9000');
  });
});
