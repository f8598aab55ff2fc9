/**
 * Certificate login against a local TLS server on 127.0.0.1 that, like Betfair's, accepts only a
 * connection presenting a trusted client certificate: the form fields and app key go in, the
 * session token comes out, and every refusal is an error that names the reason and never the password.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import type { Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CertLoginError, certLogin } from './cert-login.js';
import { selfSignedPem } from './fixtures/self-signed.js';

let dir = '';
const pem: Record<'serverKey' | 'serverCert' | 'clientKey' | 'clientCert' | 'strangerKey' | 'strangerCert', string> = {
  serverKey: '',
  serverCert: '',
  clientKey: '',
  clientCert: '',
  strangerKey: '',
  strangerCert: '',
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'betfair-certlogin-'));
  const server = selfSignedPem(dir, 'server', '127.0.0.1', 'IP:127.0.0.1');
  const client = selfSignedPem(dir, 'client', 'odds-platform');
  const stranger = selfSignedPem(dir, 'stranger', 'someone-else');
  Object.assign(pem, {
    serverKey: server.key,
    serverCert: server.cert,
    clientKey: client.key,
    clientCert: client.cert,
    strangerKey: stranger.key,
    strangerCert: stranger.cert,
  });
});

afterAll(() => {
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

interface Seen {
  appKey: string | undefined;
  form: Record<string, string>;
  clientCn: string | null;
}

/** Betfair's login endpoint as far as the login uses it: answers `answer` to a request with a trusted client certificate. */
async function loginServer(answer: unknown): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server: Server = createServer(
    { key: pem.serverKey, cert: pem.serverCert, ca: pem.clientCert, requestCert: true, rejectUnauthorized: true },
    (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        const peer = (req.socket as TLSSocket).getPeerCertificate();
        seen.push({
          appKey: req.headers['x-application'] as string | undefined,
          form: Object.fromEntries(new URLSearchParams(body)),
          clientCn: typeof peer.subject?.CN === 'string' ? peer.subject.CN : null,
        });
        res.setHeader('Content-Type', 'application/json');
        res.end(typeof answer === 'string' ? answer : JSON.stringify(answer));
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/api/certlogin`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const login = (url: string, over: { cert?: string; key?: string } = {}) =>
  certLogin({
    url,
    appKey: 'app-key-1',
    username: 'punter',
    password: 's3cret&=pass',
    cert: over.cert ?? pem.clientCert,
    key: over.key ?? pem.clientKey,
    ca: pem.serverCert,
    timeoutMs: 5_000,
  });

describe('Betfair certificate login', () => {
  it('presents the client certificate, posts the username and password as form fields with the app key, and returns the session token', async () => {
    const server = await loginServer({ sessionToken: 'token-abc', loginStatus: 'SUCCESS' });
    try {
      expect(await login(server.url)).toEqual({ sessionToken: 'token-abc' });
      expect(server.seen).toEqual([
        { appKey: 'app-key-1', form: { username: 'punter', password: 's3cret&=pass' }, clientCn: 'odds-platform' },
      ]);
    } finally {
      await server.close();
    }
  });

  it.each([
    ['INVALID_USERNAME_OR_PASSWORD', 'Betfair certificate login refused: INVALID_USERNAME_OR_PASSWORD (the username or password is wrong)'],
    ['ACCOUNT_NOW_LOCKED', 'Betfair certificate login refused: ACCOUNT_NOW_LOCKED (too many failed attempts: the account is now locked)'],
    [
      'CERT_AUTH_REQUIRED',
      'Betfair certificate login refused: CERT_AUTH_REQUIRED (the server saw no client certificate, or one not linked to this account)',
    ],
    ['SOMETHING_NEW', 'Betfair certificate login refused: SOMETHING_NEW (a refusal this service does not know)'],
  ])('reports a %s refusal in words, without the password', async (status, message) => {
    const server = await loginServer({ sessionToken: '', loginStatus: status });
    try {
      const err = await login(server.url).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CertLoginError);
      expect((err as CertLoginError).message).toBe(message);
      expect((err as CertLoginError).loginStatus).toBe(status);
      expect((err as Error).message).not.toContain('s3cret');
    } finally {
      await server.close();
    }
  });

  it('fails clearly when the server does not trust the certificate presented', async () => {
    const server = await loginServer({ sessionToken: 'never', loginStatus: 'SUCCESS' });
    try {
      const err = (await login(server.url, { cert: pem.strangerCert, key: pem.strangerKey }).catch((e: unknown) => e)) as Error;
      expect(err).toBeInstanceOf(CertLoginError);
      expect(err.message).toMatch(
        /^Betfair certificate login failed at 127\.0\.0\.1:\d+: .*\(is the client certificate the one linked to the account\?\)$/,
      );
      expect(server.seen).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('says so when the answer is not the login answer', async () => {
    const server = await loginServer('<html>maintenance</html>');
    try {
      await expect(login(server.url)).rejects.toThrow('Betfair certificate login: HTTP 200, an answer that is not JSON');
    } finally {
      await server.close();
    }
  });
});
