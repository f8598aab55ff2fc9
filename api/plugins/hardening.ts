import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

/**
 * Headers every answer carries, the web screen's pages included: no MIME sniffing (a JSON body
 * that echoes input must never be read as HTML or script), and no Referer leaving with the
 * user's URL, whose query may hold `api_key`. Answers written on the raw socket (connection
 * cap, malformed requests) add the same set.
 */
export const HARDENING_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/**
 * What the API's own answers add: nothing they return is a document to render or frame. The web
 * screen's pages sit outside the prefix and set their own policy.
 */
const API_ONLY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
};

/** Both sets, built once: every API request sets them. */
const API_HEADERS: Readonly<Record<string, string>> = Object.freeze({ ...HARDENING_HEADERS, ...API_ONLY_HEADERS });

/** The headers of an answer to `url`: API_ONLY_HEADERS too when it is under `apiPrefix`. */
export function hardeningHeaders(url: string, apiPrefix: string): Readonly<Record<string, string>> {
  // The path is the prefix itself or goes on below it; looked at in place, without splitting the URL.
  if (!url.startsWith(apiPrefix)) return HARDENING_HEADERS;
  const next = url.charCodeAt(apiPrefix.length);
  return Number.isNaN(next) || next === SLASH || next === QUERY ? API_HEADERS : HARDENING_HEADERS;
}

const SLASH = 0x2f;
const QUERY = 0x3f;

/**
 * Set when the request arrives rather than as the answer leaves: streams (SSE, MCP) write their
 * head from the reply's headers and skip the send hooks, and an error keeps what was set before it.
 */
export const hardeningPlugin = fp<{ apiPrefix: string }>(
  async (app: FastifyInstance, { apiPrefix }) => {
    app.addHook('onRequest', (request, reply, done) => {
      void reply.headers(hardeningHeaders(request.url, apiPrefix));
      done();
    });
  },
  { name: 'hardening' },
);
