import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';

/** Object keys that would reach an object's prototype if a body were ever merged into one. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** The charset parameter of a Content-Type, lowercased; undefined when absent. */
function charsetOf(contentType: string): string | undefined {
  const m = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType);
  return m?.[1]?.toLowerCase();
}

/**
 * JSON text to a value. JSON.parse keeps a `__proto__` key as an own property (it never sets
 * the prototype), but a body key named after a prototype member is never a field of this API
 * and would poison any object it is later merged into: refuse it, naming it.
 */
export function parseJsonBody(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError('invalid_request', 'Invalid body: not valid JSON');
  }
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
      continue;
    }
    for (const key of Object.keys(v)) {
      if (PROTOTYPE_KEYS.has(key))
        throw new ApiError('invalid_request', `Invalid body field '${key}': not a field of this API (a reserved name)`);
      stack.push((v as Record<string, unknown>)[key]);
    }
  }
  return value;
}

/**
 * The only body parser for application/json. A body that is compressed (Content-Encoding) or
 * declared in another charset than UTF-8 is refused with 415 rather than read as UTF-8 JSON;
 * an empty body is an error naming it.
 */
export const jsonBodyPlugin = fp(async (app: FastifyInstance) => {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request: FastifyRequest, body: Buffer, done) => {
    try {
      const encoding = request.headers['content-encoding'];
      if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
        throw new ApiError(
          'unsupported_media_type',
          `Invalid body: Content-Encoding '${encoding}' is not accepted; send uncompressed JSON`,
        );
      }
      const charset = charsetOf(request.headers['content-type'] ?? '');
      if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
        throw new ApiError('unsupported_media_type', `Invalid body: charset '${charset}' is not accepted; send JSON in UTF-8`);
      }
      if (body.length === 0) throw new ApiError('invalid_request', 'Invalid body: empty, but the content-type is application/json');
      done(null, parseJsonBody(body.toString('utf8')));
    } catch (e) {
      done(e as Error, undefined);
    }
  });
});
