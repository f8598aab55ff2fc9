import { request } from 'node:https';

/**
 * Betfair's non-interactive login: a POST of the account's username and password to the
 * certificate login endpoint over a TLS connection that presents the account's client
 * certificate, answered with `{ sessionToken, loginStatus }`. The stream and the Betting API
 * take that token; nothing here logs or repeats the password or the token.
 */

export const DEFAULT_CERT_LOGIN_URL = 'https://identitysso-cert.betfair.com/api/certlogin';

export interface CertLoginOptions {
  url: string;
  appKey: string;
  username: string;
  password: string;
  /** The client certificate and its private key, PEM. */
  cert: string;
  key: string;
  /** Certificates to trust for the server instead of the system's (a test server's own). */
  ca?: string;
  /** The whole exchange, connection to answer; bounded so that a start never hangs on it. */
  timeoutMs?: number;
}

/** What each refusal Betfair documents means for the operator, by `loginStatus`. */
const REFUSALS: ReadonlyMap<string, string> = new Map([
  ['INVALID_USERNAME_OR_PASSWORD', 'the username or password is wrong'],
  ['ACCOUNT_NOW_LOCKED', 'too many failed attempts: the account is now locked'],
  ['ACCOUNT_ALREADY_LOCKED', 'the account is locked'],
  ['PENDING_AUTH', 'the account waits for an authentication step on the website'],
  ['TELBET_TERMS_CONDITIONS_NA', 'telbet terms and conditions rejected'],
  ['DUPLICATE_CARDS', 'duplicate cards on the account'],
  ['SECURITY_QUESTION_WRONG_3X', 'the security question was answered wrongly three times'],
  ['KYC_SUSPEND', 'the account is suspended pending identity checks (KYC)'],
  ['SUSPENDED', 'the account is suspended'],
  ['CLOSED', 'the account is closed'],
  ['SELF_EXCLUDED', 'the account is self-excluded'],
  ['INVALID_CONNECTIVITY_TO_REGULATOR_DK', 'the Danish regulator cannot be reached'],
  ['NOT_AUTHORIZED_BY_REGULATOR_DK', 'not authorised by the Danish regulator'],
  ['INVALID_CONNECTIVITY_TO_REGULATOR_IT', 'the Italian regulator cannot be reached'],
  ['NOT_AUTHORIZED_BY_REGULATOR_IT', 'not authorised by the Italian regulator'],
  ['SECURITY_RESTRICTED_LOCATION', 'logins are restricted from this location'],
  ['BETTING_RESTRICTED_LOCATION', 'betting is restricted from this location'],
  ['TRADING_MASTER', 'a Trading Master account cannot log in this way'],
  ['TRADING_MASTER_SUSPENDED', 'the Trading Master account is suspended'],
  ['AGENT_CLIENT_MASTER', 'an Agent Client Master account cannot log in this way'],
  ['AGENT_CLIENT_MASTER_SUSPENDED', 'the Agent Client Master account is suspended'],
  ['DANISH_AUTHORIZATION_REQUIRED', 'Danish authorisation is required'],
  ['SPAIN_MIGRATION_REQUIRED', 'the account must be migrated to the Spanish exchange'],
  ['DENMARK_MIGRATION_REQUIRED', 'the account must be migrated to the Danish exchange'],
  ['SPANISH_TERMS_ACCEPTANCE_REQUIRED', 'the Spanish terms must be accepted on the website'],
  ['ITALIAN_CONTRACT_ACCEPTANCE_REQUIRED', 'the Italian contract must be accepted on the website'],
  ['CERT_AUTH_REQUIRED', 'the server saw no client certificate, or one not linked to this account'],
  ['CHANGE_PASSWORD_REQUIRED', 'the password must be changed on the website'],
  ['PERSONAL_MESSAGE_REQUIRED', 'a personal message waits on the website'],
  ['INTERNATIONAL_TERMS_ACCEPTANCE_REQUIRED', 'the international terms must be accepted on the website'],
  ['EMAIL_LOGIN_NOT_ALLOWED', 'log in with the username, not the email address'],
  ['MULTIPLE_USERS_WITH_SAME_CREDENTIAL', 'several accounts share these credentials'],
  ['ACCOUNT_PENDING_PASSWORD_CHANGE', 'the account waits for a password change'],
  ['TEMPORARY_BAN_TOO_MANY_REQUESTS', 'too many login requests: temporarily banned, try again in 20 minutes'],
]);

/** A refused or failed login, with the reason in words (never the password or a token). */
export class CertLoginError extends Error {
  constructor(
    message: string,
    /** Betfair's `loginStatus`, when it answered one. */
    readonly loginStatus: string | null,
  ) {
    super(message);
    this.name = 'CertLoginError';
  }
}

function answerOf(status: number | undefined, body: string): { sessionToken: string } {
  let answer: unknown;
  try {
    answer = JSON.parse(body);
  } catch {
    throw new CertLoginError(`Betfair certificate login: HTTP ${String(status)}, an answer that is not JSON`, null);
  }
  const a = (typeof answer === 'object' && answer !== null ? answer : {}) as Record<string, unknown>;
  const loginStatus = typeof a['loginStatus'] === 'string' ? a['loginStatus'] : null;
  if (loginStatus === 'SUCCESS' && typeof a['sessionToken'] === 'string' && a['sessionToken'] !== '') {
    return { sessionToken: a['sessionToken'] };
  }
  if (loginStatus === null)
    throw new CertLoginError(`Betfair certificate login: HTTP ${String(status)}, no loginStatus in the answer`, null);
  if (loginStatus === 'SUCCESS') throw new CertLoginError('Betfair certificate login: SUCCESS without a session token', loginStatus);
  const why = REFUSALS.get(loginStatus) ?? 'a refusal this service does not know';
  throw new CertLoginError(`Betfair certificate login refused: ${loginStatus} (${why})`, loginStatus);
}

/** Logs in with the client certificate; resolves with the session token, or rejects with a CertLoginError. */
export function certLogin(o: CertLoginOptions): Promise<{ sessionToken: string }> {
  const body = new URLSearchParams({ username: o.username, password: o.password }).toString();
  return new Promise((resolve, reject) => {
    const req = request(
      o.url,
      {
        method: 'POST',
        cert: o.cert,
        key: o.key,
        ...(o.ca !== undefined ? { ca: o.ca } : {}),
        timeout: o.timeoutMs ?? 10_000,
        headers: {
          'X-Application': o.appKey,
          'Content-Type': 'application/x-www-form-urlencoded',
          'Content-Length': Buffer.byteLength(body),
          Accept: 'application/json',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (err) => reject(new CertLoginError(`Betfair certificate login: the answer broke off (${err.message})`, null)));
        res.on('end', () => {
          try {
            resolve(answerOf(res.statusCode, Buffer.concat(chunks).toString('utf8')));
          } catch (err) {
            reject(err instanceof Error ? err : new Error(String(err)));
          }
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${String(o.timeoutMs ?? 10_000)} ms`)));
    req.on('error', (err) =>
      reject(
        new CertLoginError(
          `Betfair certificate login failed at ${new URL(o.url).host}: ${err.message} (is the client certificate the one linked to the account?)`,
          null,
        ),
      ),
    );
    req.end(body);
  });
}
