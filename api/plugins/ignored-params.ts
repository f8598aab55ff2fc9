import type { FastifyRequest } from 'fastify';

/**
 * Query parameters a route does not know are ignored, never refused: clients written for the
 * reference service send some we do not have (or misspell one), and must keep working. Ignoring
 * them silently hid typos (`sports=basketball` answered every sport), so the answer names them in
 * `meta.ignored_params` and the log says which route got them.
 */

/** Read from the query string by the auth hook, not by any route's schema. */
const READ_BEFORE_ROUTES: ReadonlySet<string> = new Set(['api_key']);

interface QuerySchema {
  properties?: Record<string, unknown>;
}

/** The names in `query` that neither the route's querystring schema nor the auth hook reads, in the client's order. */
export function ignoredParams(query: unknown, schema: unknown): string[] {
  if (typeof query !== 'object' || query === null) return [];
  const known = (schema as QuerySchema | undefined)?.properties ?? {};
  return Object.keys(query).filter((name) => !Object.hasOwn(known, name) && !READ_BEFORE_ROUTES.has(name));
}

/** The parameters of this request's query that nothing reads, logged once with the route. */
export function noteIgnoredParams(request: FastifyRequest): string[] {
  const names = ignoredParams(request.query, request.routeOptions.schema?.querystring);
  if (names.length > 0) request.log.info({ route: request.routeOptions.url, ignored_params: names }, 'ignored unknown query parameters');
  return names;
}
