import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance } from 'fastify';
import { ApiError, ERROR_CODES, errorBody } from '../errors.js';
import type { ErrorCode } from '../errors.js';
import { notOneOf } from '../contract/index.js';

const CONTEXT_WORDS = new Map([
  ['querystring', 'query parameter'],
  ['body', 'body field'],
  ['params', 'path parameter'],
  ['headers', 'header'],
]);

/** "Invalid query parameter 'limit': must be <= 1000": the message names the field. */
export function describeValidation(error: FastifyError): string {
  const first = error.validation?.[0];
  const where = CONTEXT_WORDS.get(error.validationContext ?? '') ?? 'parameter';
  if (!first) return error.message;
  const params = first.params as Record<string, unknown>;
  const missing = params['missingProperty'];
  if (typeof missing === 'string') return `Missing required ${where} '${missing}'`;
  const field = first.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const allowed = params['allowedValues'];
  const extra = params['additionalProperty'];
  const detail = Array.isArray(allowed)
    ? notOneOf(allowed, (first as { data?: unknown }).data)
    : typeof extra === 'string'
      ? `must NOT have additional property '${extra}'`
      : (first.message ?? 'is invalid');
  if (field === '') return `Invalid ${where === 'body field' ? 'body' : where}: ${detail}`;
  return `Invalid ${where} '${field}': ${detail}`;
}

/**
 * `offset` above the route's maximum is its own code, as clients of the reference service expect
 * (400 offset_too_large with `max_offset`), with a pointer to the way further.
 */
function offsetTooLarge(error: FastifyError): { max: number; message: string } | null {
  const first = error.validation?.[0];
  if (!first || error.validationContext !== 'querystring' || first.instancePath !== '/offset' || first.keyword !== 'maximum') return null;
  const max = Number((first.params as Record<string, unknown>)['limit']);
  return {
    max,
    message: `Invalid query parameter 'offset': must be <= ${max}; page further with cursor/next_cursor where the endpoint offers it (GET /odds), or narrow the filters`,
  };
}

/** Fastify's own client errors, in the words of the rest of the API. */
const FASTIFY_MESSAGES = new Map<string, (e: FastifyError) => string>(
  Object.entries({
    FST_ERR_CTP_INVALID_JSON_BODY: () => 'Invalid body: not valid JSON',
    FST_ERR_CTP_EMPTY_JSON_BODY: () => 'Invalid body: empty, but the content-type is application/json',
    FST_ERR_CTP_INVALID_MEDIA_TYPE: () => 'Invalid body: unsupported content-type; send application/json',
    FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => 'Invalid body: content-length does not match the body',
    FST_ERR_CTP_BODY_TOO_LARGE: () => 'Invalid body: larger than the 1 MiB limit',
    FST_ERR_CTP_INVALID_TYPE: () => 'Invalid body: content-type must be a string',
  }),
);

/** The catalogue code of a client-error status Fastify raised itself. */
const CODE_BY_STATUS = new Map<number, ErrorCode>([
  [401, 'unauthorized'],
  [404, 'not_found'],
  [408, 'request_timeout'],
  [413, 'payload_too_large'],
  [415, 'unsupported_media_type'],
  [429, 'rate_limited'],
  [431, 'headers_too_large'],
]);

/**
 * Every failure leaves in the error envelope: validation -> 400 invalid_request naming the
 * field, ApiError -> its code, unknown routes -> 404, anything else -> 500 with the request id
 * logged (never the stack in the body).
 */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // Errors raised before the onRequest hooks (a broken URL, a body parser) still carry the id.
    void reply.header('x-request-id', request.id);
    if (error instanceof ApiError) {
      void reply
        .code(error.status)
        .headers(error.headers)
        .send(errorBody(error.code, error.message, error.extras));
      return;
    }
    const tooFar = offsetTooLarge(error);
    if (tooFar !== null) {
      void reply.code(400).send(errorBody('offset_too_large', tooFar.message, { max_offset: tooFar.max }));
      return;
    }
    if (error.validation) {
      void reply.code(400).send(errorBody('invalid_request', describeValidation(error)));
      return;
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON body, body too large, unsupported media type).
      const code = CODE_BY_STATUS.get(status) ?? 'invalid_request';
      const message = FASTIFY_MESSAGES.get(error.code)?.(error) ?? error.message;
      void reply.code(ERROR_CODES[code].status).send(errorBody(code, message));
      return;
    }
    request.log.error({ err: error }, 'unhandled error');
    void reply.code(500).send(errorBody('internal_error', `Internal error; request id ${String(request.id)}`));
  });

  app.setNotFoundHandler((request, reply) => {
    void reply.header('x-request-id', request.id);
    void reply.code(404).send(errorBody('not_found', `No route ${request.method} ${request.url.split('?')[0] ?? ''}`));
  });
});
