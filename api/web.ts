import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';

/**
 * The web screen's built files (web/, `make web-build`) at `/`, beside the API under /api/v1.
 * Only the files that exist at start are routed (no wildcard), so an unknown path is the API's
 * ordinary 404. The page talks to the API with its session cookie and nothing else: the CSP
 * allows scripts, styles and connections to this origin only, and no framing. Nosniff and the
 * referrer policy come with every answer of the server (plugins/hardening.ts).
 */
export const webPlugin: FastifyPluginAsync<{ root: string }> = async (app, { root }) => {
  if (!existsSync(join(root, 'index.html'))) {
    app.log.warn({ root }, 'web screen not built (make web-build): not served');
    return;
  }
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    wildcard: false,
    index: ['index.html'],
    setHeaders: (res, path) => {
      if (path.endsWith('.html')) {
        res.header(
          'content-security-policy',
          "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
        );
        res.header('cache-control', 'no-cache');
      } else {
        // Vite names assets by content hash: safe to cache for good.
        res.header('cache-control', 'public, max-age=31536000, immutable');
      }
    },
  });
};
