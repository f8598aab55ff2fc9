import { createHash, timingSafeEqual } from 'node:crypto';

// The operator's answers are served by the runtime's listeners (METRICS_PORT, the pipeline
// process's PORT) and by the API's `/metrics`: one token check and one refusal for all of them.
// Here, below both api/ and runtime/, because the pipeline role serves these answers without
// loading any module of api/ (runtime/roles.test.ts).

export interface OperatorAnswer {
  contentType: string;
  body: string;
}

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/** Whether `authorization` carries `token` as a bearer token (constant time in the token). */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const given = authorization?.startsWith('Bearer ') ? authorization.slice(7).trim() : null;
  return given !== null && timingSafeEqual(digest(given), digest(token));
}

export const OPERATOR_UNAUTHORIZED = 'The operator endpoints need METRICS_TOKEN as a bearer token (Authorization: Bearer <token>)';
