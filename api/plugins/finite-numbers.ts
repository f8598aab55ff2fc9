import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.js';

/**
 * Ajv's type coercion turns the query text `Infinity` into a number that slips past `maximum`
 * (measured with ajv 8: `{ type: 'integer', maximum: 1000 }` accepts "Infinity"). Every number
 * the schemas coerce must be finite, so this hook rejects the rest with 400 naming the field.
 */
export const finiteNumbersPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preHandler', async (request) => {
    check(request.query, 'query parameter');
    check(request.body, 'body field');
  });
});

function check(values: unknown, where: string): void {
  if (values === null || typeof values !== 'object' || Array.isArray(values)) return;
  for (const [name, v] of Object.entries(values as Record<string, unknown>)) {
    if (typeof v === 'number' && !Number.isFinite(v)) throw new ApiError('invalid_request', `Invalid ${where} '${name}': must be a finite number`);
    if (Array.isArray(v) && v.some((x) => typeof x === 'number' && !Number.isFinite(x))) throw new ApiError('invalid_request', `Invalid ${where} '${name}': must be finite numbers`);
  }
}
