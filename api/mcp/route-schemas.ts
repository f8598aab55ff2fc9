import type { RouteOptions } from 'fastify';

export interface RouteSchema {
  querystring?: JsonSchema;
  body?: JsonSchema;
  response?: Record<string, JsonSchema>;
}
export type JsonSchema = Record<string, unknown>;

/**
 * The JSON Schemas of the REST routes as Fastify registers them (an `onRoute` hook), so that a
 * tool's arguments and output are described by the same schemas that validate and serialize its
 * route: one source of truth for both interfaces.
 */
export class RouteSchemas {
  private readonly byRoute = new Map<string, RouteSchema>();

  readonly record = (route: RouteOptions): void => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const m of methods) this.byRoute.set(`${m} ${route.url}`, (route.schema ?? {}) as RouteSchema);
  };

  get(method: string, url: string): RouteSchema | undefined {
    return this.byRoute.get(`${method} ${url}`);
  }
}
