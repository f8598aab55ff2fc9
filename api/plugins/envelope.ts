import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { releasePage, splicedRows } from '../contract/index.js';
import type { SplicedRows } from '../contract/index.js';
import { noteIgnoredParams } from './ignored-params.js';

/**
 * What every answer of the authenticated API carries on the wire, beyond what a handler returns,
 * so that clients written for the reference service work unchanged (docs/api.md, "Compatibility"):
 *
 * - query conventions before validation: `event_id` is `event` on routes that take `event`, and a
 *   repeated string parameter (`add_sportsbook=a&add_sportsbook=b`) is the comma list `a,b`;
 * - on 2xx JSON envelopes: `updated_at` (emit time), `data` never null, `meta.pagination`
 *   beside the top-level `pagination`, and `meta.ignored_params` naming the query parameters the
 *   route ignored (api/plugins/ignored-params.ts);
 * - `X-Tier` (the key's tier, lowercase) on every answer to a known key;
 * - on cacheable GETs (200): a strong `ETag` over the tier and the body (without `updated_at`;
 *   rows spliced in ready enter by their digests, `splicedTag`) and `Cache-Control: private,
 *   max-age=0, must-revalidate`; `If-None-Match` matching it (or `*`) answers 304 with no body.
 */

/** Paths (under the API prefix) whose 200 answers carry an ETag. */
const CACHEABLE = /^\/api\/v1\/(odds|events|sports|leagues|sportsbooks|markets|teams|opportunities)(\/|\?|$)/;
export const CACHE_CONTROL = 'private, max-age=0, must-revalidate';

declare module 'fastify' {
  interface FastifyRequest {
    /** The `updated_at` written into this answer, so the ETag can leave it out. */
    emittedAt: string | null;
    /** Query parameters the route does not know (none: null), echoed in `meta.ignored_params`. */
    ignoredParams: string[] | null;
  }
}

interface QuerySchema {
  properties?: Record<string, { type?: unknown }>;
}

function normaliseQuery(request: FastifyRequest): void {
  const query = request.query as Record<string, unknown> | undefined;
  if (!query || typeof query !== 'object') return;
  const props = (request.routeOptions.schema?.querystring as QuerySchema | undefined)?.properties;
  if (!props) return;
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value) && props[name]?.type === 'string') query[name] = value.map(String).join(',');
  }
  if ('event' in props && query['event'] === undefined && typeof query['event_id'] === 'string') query['event'] = query['event_id'];
}

/** RFC 9110: If-None-Match is `*` or a list of entity tags, compared weakly. */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === bare;
  });
}

/**
 * The tag of an answer's bytes for this tier, leaving out the first `skip` (the emit time, which
 * changes every answer while the content it stamps may not).
 */
export function entityTag(tier: string, body: Buffer, skip?: string): string {
  const hash = createHash('sha1').update(tier).update('\n');
  const at = skip === undefined ? -1 : body.indexOf(skip);
  if (skip === undefined || at < 0) return `"${hash.update(body).digest('base64url')}"`;
  return `"${hash
    .update(body.subarray(0, at))
    .update(body.subarray(at + Buffer.byteLength(skip)))
    .digest('base64url')}"`;
}

/**
 * The tag of an answer whose rows were spliced in ready (contract/odds-fragments.ts), for this
 * tier: the envelope's bytes enter as they are (without the emit time), each row through the
 * SHA-1 of its bytes, so a 100-row page of 130 KB hashes about 2.5 KB. The lengths of the head
 * and of the digests go first, so the parts cannot be shifted into one another: the tag changes
 * whenever the bytes sent (emit time aside) change, and only then. The emit time is looked for
 * in the envelope only, never inside a row.
 */
export function splicedTag(tier: string, body: Buffer, rows: SplicedRows, skip?: string): string {
  const hash = createHash('sha1').update(`${tier}\n${rows.start}\n${rows.digests.length}\n`);
  const head = body.subarray(0, rows.start);
  const tail = body.subarray(rows.end);
  const inHead = skip === undefined ? -1 : head.indexOf(skip);
  const inTail = skip === undefined || inHead >= 0 ? -1 : tail.indexOf(skip);
  const skipped = skip === undefined ? 0 : Buffer.byteLength(skip);
  if (inHead >= 0) hash.update(head.subarray(0, inHead)).update(head.subarray(inHead + skipped));
  else hash.update(head);
  hash.update(rows.digests);
  if (inTail >= 0) hash.update(tail.subarray(0, inTail)).update(tail.subarray(inTail + skipped));
  else hash.update(tail);
  return `"${hash.digest('base64url')}"`;
}

function hasToJson(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function';
}

function isEnvelope(payload: unknown): payload is Record<string, unknown> {
  return typeof payload === 'object' && payload !== null && !Array.isArray(payload) && !Buffer.isBuffer(payload) && 'data' in payload;
}

/**
 * A 2xx envelope as it goes on the wire: `data` never null, `meta.pagination` beside the
 * top-level `pagination`, and the emit time. MCP tools answer their structured content this way too.
 */
export function onTheWire(
  payload: Record<string, unknown>,
  emittedAt: string,
  ignoredParams: string[] | null = null,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...payload };
  if (out['data'] === null || out['data'] === undefined) out['data'] = [];
  const page = out['pagination'];
  const meta = out['meta'];
  if (page !== undefined && (meta === undefined || (typeof meta === 'object' && meta !== null && !('pagination' in meta)))) {
    out['meta'] = { ...(meta as object | undefined), pagination: page };
  }
  if (ignoredParams !== null) out['meta'] = { ...(out['meta'] as object | undefined), ignored_params: ignoredParams };
  out['updated_at'] = emittedAt;
  return out;
}

/** Sees every answer's payload before it is sent (tests hold answers to their response schemas with it). */
export type PayloadInspector = (request: FastifyRequest, statusCode: number, payload: unknown) => void;

export const envelopePlugin = fp<{ inspect?: PayloadInspector }>(async (app: FastifyInstance, options) => {
  app.decorateRequest('emittedAt', null);
  app.decorateRequest('ignoredParams', null);

  // The hooks here do no I/O, so they call `done` instead of returning a promise: each async hook
  // cost every request a promise and a microtask turn (docs/performance.md, 2026-11-29).
  app.addHook('preValidation', (request, _reply, done) => {
    const ignored = noteIgnoredParams(request);
    if (ignored.length > 0) request.ignoredParams = ignored;
    normaliseQuery(request);
    done();
  });

  app.addHook('preSerialization', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done) => {
    if (reply.statusCode < 200 || reply.statusCode >= 300 || !isEnvelope(payload)) {
      options.inspect?.(request, reply.statusCode, payload);
      done(null, payload);
      return;
    }
    request.emittedAt = new Date().toISOString();
    const out = onTheWire(payload, request.emittedAt, request.ignoredParams);
    // Rows a route hands over already serialized (RawRows) are inspected as the JSON they are.
    options.inspect?.(request, reply.statusCode, hasToJson(out['data']) ? (JSON.parse(JSON.stringify(out)) as unknown) : out);
    done(null, out);
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    done(null, onSend(request, reply, payload));
  });
});

/** The tier header, and the entity tag (or the 304) of a cacheable GET's 200. */
function onSend(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  const tier = request.apiKey?.tier;
  if (tier !== undefined) void reply.header('x-tier', tier);
  if (request.method !== 'GET' || reply.statusCode !== 200 || tier === undefined || !CACHEABLE.test(request.url)) return payload;
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
  // Encoded once, hashed and sent as these bytes: a 100-row page is about 130 KB, and hashing the
  // string and then writing it encoded it twice (plus a copy to cut out the emit time).
  const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  const emitted = request.emittedAt === null ? undefined : `"updated_at":"${request.emittedAt}"`;
  const rows = typeof payload === 'string' ? undefined : splicedRows(payload);
  const etag = rows ? splicedTag(tier, body, rows, emitted) : entityTag(tier, body, emitted);
  // A route with its own caching rule (/odds/closing: shared caches may keep it 30 s) keeps it.
  void reply.header('etag', etag).header('cache-control', (reply.getHeader('cache-control') as string | undefined) ?? CACHE_CONTROL);
  if (!matchesIfNoneMatch(request.headers['if-none-match'], etag)) {
    // A spliced page's memory is reused once every write of it is done ('finish'), never before.
    if (rows) reply.raw.once('finish', () => releasePage(body));
    return body;
  }
  if (rows) releasePage(body);
  void reply.code(304).removeHeader('content-type').removeHeader('content-length').removeHeader('content-disposition');
  return '';
}
