/**
 * Random and malformed parameters, paths, headers and bodies thrown at every endpoint for a
 * bounded time and count: never a 5xx, never a body outside the envelopes (data envelope on
 * success, the error envelope with a catalogue code and its status otherwise), always an
 * X-Request-Id. Two generators: free-form probes over known paths, and one property per
 * operation of the generated OpenAPI document, fuzzing each of its parameters and body fields
 * with schema-valid values, junk, prototype names, huge and unicode strings and malformed JSON,
 * where the answer's status must also be one the document lists for the operation.
 */
import { request } from 'node:http';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../api/errors.js';
import { conformanceForFile, fixtureEventId } from './support/fixture.js';
import type { Conformance } from './support/fixture.js';
import { PROTOTYPE_NAMES } from './support/prototype-names.js';

const FUZZ_MS = Number(process.env['FUZZ_MS'] ?? 10_000);
type Row = Record<string, unknown>;
let c: Conformance;
let eventId = '';
conformanceForFile(async (started) => {
  c = started;
  eventId = await fixtureEventId(c, 'nba');
});

const PARAMS = [
  'sport',
  'league',
  'sportsbook',
  'add_sportsbook',
  'market',
  'event',
  'live',
  'team',
  'date',
  'q',
  'min_odds',
  'max_odds',
  'limit',
  'offset',
  'sort',
  'fields',
  'group_by',
  'cursor',
  'since',
  'include_empty',
  'region',
  'sharp',
  'catalog',
  'include_unlisted',
  'include_inactive',
  'has_score',
  'api_key',
  'event_id',
  'start_time',
  'end_time',
  'signal',
  'books',
  'from',
  'to',
  'graded',
  'devig_book',
];

const PATHS = (): string[] => [
  '/api/v1/health',
  '/api/v1/sports',
  '/api/v1/sports/basketball',
  '/api/v1/sports/{x}',
  '/api/v1/leagues',
  '/api/v1/sportsbooks',
  '/api/v1/sportsbooks/{x}',
  '/api/v1/markets',
  '/api/v1/teams',
  '/api/v1/events',
  `/api/v1/events/${eventId}`,
  '/api/v1/events/{x}',
  `/api/v1/events/${eventId}/markets`,
  '/api/v1/events/{x}/markets',
  `/api/v1/events/${eventId}/odds`,
  '/api/v1/events/{x}/odds',
  '/api/v1/odds',
  '/api/v1/odds/best',
  '/api/v1/odds/comparison',
  '/api/v1/odds/delta',
  '/api/v1/odds/batch',
  '/api/v1/openapi.json',
  '/api/v1/docs/errors',
  '/api/v1/{x}',
  '/{x}',
  '/api/v1/splits',
  '/api/v1/splits/history',
  '/api/v1/leagues/nba',
  '/api/v1/leagues/{x}',
  '/api/v1/opportunities/ev',
  '/api/v1/opportunities/arbitrage',
  '/api/v1/opportunities/middles',
  '/api/v1/opportunities/middles/summary',
  '/api/v1/opportunities/middles/{x}',
  '/api/v1/opportunities/low_hold',
  '/api/v1/opportunities/low-hold',
  '/api/v1/account',
  '/api/v1/account/usage',
  '/api/v1/account/keys',
  '/api/v1/account/keys/{x}',
  '/api/v1/account/keys/{x}/rotate',
  '/api/v1/deeplinks/batch',
  '/api/v1/deeplink/{x}',
  '/api/v1/gamestate',
  '/api/v1/gamestate/{x}',
  '/api/v1/odds/closing',
  '/api/v1/historical/odds/closing',
  '/api/v1/historical/clv',
  '/api/v1/opportunities/ev/history',
];

const interesting = fc.constantFrom(
  '',
  ' ',
  'true',
  'false',
  '1',
  '0',
  '-1',
  '1.5',
  '1e308',
  '-1e308',
  'NaN',
  'Infinity',
  '9007199254740993',
  'null',
  'undefined',
  '[]',
  '{}',
  ',',
  ',,',
  'nba,',
  ',nba',
  'nba,nfl',
  'basketball',
  'pinnacle',
  'draftkings,fanduel',
  'moneyline',
  'event',
  'odds_american',
  '-odds_american',
  '-',
  '--sport',
  'odds_american,id',
  '2026-05-01T00:00:00Z',
  '2026-05-01T00:00:00.123456789Z',
  '2001-01-01T00:00:00Z',
  '2099-01-01T00:00:00+14:00',
  '2026-02-30T00:00:00Z',
  '2026-05-01',
  '%00',
  '%ZZ',
  '%E0%A4%A',
  '%C0%AF',
  '\u0000',
  '\uffff',
  '😀',
  'a'.repeat(2100),
  '../../etc/passwd',
  '<script>',
  "' OR 1=1 --",
  'WzEsIngiXQ',
  'eyJ9',
  eventId,
);

const value = fc.oneof(
  interesting,
  fc.string({ maxLength: 40 }),
  fc.integer().map(String),
  fc.double().map(String),
  fc.string({ unit: 'grapheme', maxLength: 10 }),
);

/** Percent-encodes, except for values that are already broken escapes (sent raw on purpose). */
function enc(v: string): string {
  return /^(%[0-9A-Za-z]{0,2})+$/.test(v) ? v : encodeURIComponent(v);
}

interface Probe {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const probe = fc
  .record({
    path: fc.constantFrom(...PATHS()),
    segment: value,
    params: fc.array(fc.tuple(fc.oneof(fc.constantFrom(...PARAMS), fc.string({ maxLength: 8 })), value), { maxLength: 6 }),
    auth: fc.constantFrom('header', 'bearer', 'query', 'none', 'wrong', 'free', 'hobby'),
    method: fc.constantFrom('GET', 'GET', 'GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS'),
    body: fc.oneof(
      fc.constant(undefined),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc
        .record({ event_ids: fc.oneof(fc.array(value, { maxLength: 120 }), value), sportsbook: fc.option(value), market: fc.option(value) })
        .map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 50 }),
    ),
    contentType: fc.constantFrom('application/json', 'application/json', 'text/plain', 'application/x-www-form-urlencoded', ''),
  })
  .map(({ path, segment, params, auth, method, body, contentType }): Probe => {
    const key = auth === 'free' ? c.keys.free : auth === 'hobby' ? c.keys.hobby : auth === 'wrong' ? 'not-a-key-at-all' : c.keys.sharp;
    const query = params.map(([k, v]) => `${enc(k)}=${enc(v)}`);
    if (auth === 'query') query.push(`api_key=${encodeURIComponent(key)}`);
    const headers: Record<string, string> = {};
    if (auth === 'header' || auth === 'free' || auth === 'hobby' || auth === 'wrong') headers['x-api-key'] = key;
    if (auth === 'bearer') headers['authorization'] = `Bearer ${key}`;
    const isBatch = path.endsWith('/odds/batch');
    const m = isBatch && method === 'GET' ? 'POST' : method;
    if (body !== undefined && m === 'POST' && contentType !== '') headers['content-type'] = contentType;
    const full = path.replace('{x}', enc(segment)) + (query.length > 0 ? `?${query.join('&')}` : '');
    return { method: m, path: full, headers, ...(m === 'POST' && body !== undefined ? { body } : {}) };
  });

function send(p: Probe): Promise<{ status: number; text: string; type: string; requestId: string }> {
  const url = new URL(c.sys.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method: p.method, path: p.path, headers: p.headers }, (res) => {
      const type = String(res.headers['content-type'] ?? '');
      // An accepted stream never ends: its status and headers are the answer.
      if (type.startsWith('text/event-stream')) {
        resolve({ status: res.statusCode ?? 0, text: '', type, requestId: String(res.headers['x-request-id'] ?? '') });
        req.destroy();
        return;
      }
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          text,
          type: String(res.headers['content-type'] ?? ''),
          requestId: String(res.headers['x-request-id'] ?? ''),
        }),
      );
    });
    req.on('error', reject);
    if (p.body !== undefined) req.write(p.body);
    req.end();
  });
}

function checkEnvelope(p: Probe, r: { status: number; text: string; type: string; requestId: string }): void {
  const where = `${p.method} ${p.path.slice(0, 300)} -> ${r.status} ${r.text.slice(0, 300)}`;
  if (r.status >= 500) throw new Error(`5xx: ${where}`);
  expect(r.requestId, where).toMatch(/^[0-9a-f-]{36}$/);
  if (p.method === 'HEAD') return;
  if (r.status === 200 && (r.type.startsWith('text/csv') || r.type.startsWith('text/event-stream'))) return;
  // The web screen's built files (api/web.ts) live outside the API and are served as themselves.
  if (
    r.status === 200 &&
    !p.path.startsWith('/api/') &&
    /^(text\/html|text\/css|text\/javascript|application\/javascript|image\/)/.test(r.type)
  )
    return;
  // The deep-link resolver answers with a bodiless redirect (to a fallback URL, for an unknown id).
  if (r.status === 302 && p.path.startsWith('/api/v1/deeplink/')) return void expect(r.text, where).toBe('');
  let body: Row;
  try {
    body = JSON.parse(r.text) as Row;
  } catch {
    throw new Error(`not JSON: ${where}`);
  }
  if (r.status < 300) {
    const path = p.path.split('?')[0] ?? '';
    if (path === '/api/v1/health') return void expect(body['status'], where).toMatch(/^(ok|degraded)$/);
    if (path === '/api/v1/openapi.json') return void expect(body['openapi'], where).toBe('3.1.0');
    expect(body['success'], where).toBe(true);
    expect('data' in body, where).toBe(true);
    return;
  }
  const error = body['error'] as Row | undefined;
  // code, docs and message always; beyond them only the documented extras (api/errors.ts ErrorExtras).
  const keys = Object.keys(error ?? {});
  expect(
    ['code', 'docs', 'message'].every((k) => keys.includes(k)),
    where,
  ).toBe(true);
  expect(
    keys.filter(
      (k) => !['code', 'docs', 'message', 'tier', 'required_tier', 'retry_after', 'max_offset', 'max_books', 'requested_books'].includes(k),
    ),
    where,
  ).toEqual([]);
  const code = error?.['code'] as keyof typeof ERROR_CODES;
  expect(code in ERROR_CODES, where).toBe(true);
  expect(ERROR_CODES[code].status, where).toBe(r.status);
}

describe('fuzzing every endpoint', () => {
  it(
    `sees no 5xx and nothing outside the envelopes for ${FUZZ_MS / 1000} s`,
    async () => {
      let runs = 0;
      await fc.assert(
        fc.asyncProperty(probe, async (p) => {
          runs++;
          checkEnvelope(p, await send(p));
        }),
        {
          numRuns: 1_000_000,
          interruptAfterTimeLimit: FUZZ_MS,
          markInterruptAsFailure: false,
          seed: Number(process.env['FUZZ_SEED'] ?? Date.now() % 100_000),
        },
      );
      expect(runs).toBeGreaterThan(100);
    },
    FUZZ_MS + 30_000,
  );
});

interface OpenApiParameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required?: boolean;
  schema: JsonSchema;
}
interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  maxItems?: number;
  required?: string[];
}
interface Operation {
  method: string;
  path: string;
  parameters: OpenApiParameter[];
  body: JsonSchema | null;
  statuses: Set<number>;
}

const OPERATION_RUNS = Number(process.env['FUZZ_OPERATION_RUNS'] ?? 100);

/** Ids the catalog knows, so that schema-valid values also reach the code behind the checks. */
const KNOWN = [
  'basketball',
  'nba',
  'nfl,epl',
  'pinnacle',
  'draftkings,fanduel',
  'moneyline',
  'point_spread,total_points',
  'main',
  'props',
  'player_points',
  'lakers',
  'Boston Celtics',
];

const junk = fc.oneof(
  interesting,
  { arbitrary: fc.constantFrom(...PROTOTYPE_NAMES), weight: 3 },
  fc.constantFrom(...PROTOTYPE_NAMES).map((n) => `nba,${n}`),
  fc.constantFrom(
    '0x10',
    '1e1',
    ' 5',
    '5 ',
    '+5',
    '-0',
    '00',
    '1.',
    '.5',
    '2026-02-30',
    '2026-13-01',
    '2028-02-29',
    '2026-05-01T25:00:00Z',
    'true,false',
    'TRUE',
  ),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }),
  fc.integer({ min: 1000, max: 12_000 }).map((n) => 'é'.repeat(n)),
  fc.integer({ min: 1000, max: 9000 }).map((n) => 'x'.repeat(n)),
);

function validValue(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.enum) return fc.constantFrom(...schema.enum.map(String));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'boolean') return fc.constantFrom('true', 'false');
  if (type === 'integer')
    return fc.integer({ min: Math.max(schema.minimum ?? -1000, -1e6), max: Math.min(schema.maximum ?? 1000, 1e6) }).map(String);
  if (type === 'number')
    return fc
      .double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true })
      .map((x) => String(Math.round(x * 100) / 100));
  if (schema.format === 'date-time')
    return fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
  if (schema.pattern?.startsWith('^\\d{4}'))
    return fc
      .date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
  return fc.oneof(fc.constantFrom(...KNOWN, eventId), fc.string({ maxLength: 20 }));
}

/** A JSON value shaped like the schema, or junk in its place (any depth). */
function bodyValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  const anything = fc.oneof(junk, fc.jsonValue({ maxDepth: 2 }), fc.constant(null));
  if (schema.type === 'array' && schema.items) {
    return fc.oneof(
      { arbitrary: fc.array(fc.oneof(validValue(schema.items), junk), { maxLength: (schema.maxItems ?? 10) + 5 }), weight: 3 },
      { arbitrary: anything, weight: 1 },
    );
  }
  if (schema.type === 'object' && schema.properties) {
    const fields = Object.entries(schema.properties).map(([k, v]) =>
      fc.option(bodyValue(v), { nil: undefined }).map((x) => [k, x] as const),
    );
    const extra = fc.option(fc.tuple(fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES), fc.string({ maxLength: 8 })), anything), {
      nil: undefined,
    });
    return fc.tuple(fc.tuple(...fields), extra).map(([pairs, more]) => {
      // defineProperty: a `__proto__` key must be an own key of the body, as a client would send it.
      const out: Record<string, unknown> = {};
      for (const [k, v] of [...pairs, ...(more ? [more] : [])])
        if (v !== undefined) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
      return out;
    });
  }
  return fc.oneof({ arbitrary: validValue(schema), weight: 2 }, { arbitrary: anything, weight: 1 });
}

const malformedJson = fc.constantFrom(
  '{',
  '{"event_ids":[}',
  '\uFEFF{"event_ids":["x"]}',
  '[]',
  'null',
  '"x"',
  '{"event_ids":["a"],"event_ids":5}',
  '{"__proto__":{"x":1},"event_ids":["a"]}',
  '{"event_ids":["\\ud800"]}',
  '{"event_ids":' + '['.repeat(5000),
  '',
);

/**
 * One request: each parameter absent or schema-valid, except one target parameter that gets
 * junk (a request full of junk would stop at the first bad value and never test the others).
 */
function operationProbe(op: Operation): fc.Arbitrary<Probe> {
  const target = fc.integer({ min: -1, max: op.parameters.length - 1 });
  const params = fc
    .tuple(target, ...op.parameters.map((p) => fc.tuple(fc.option(validValue(p.schema), { nil: undefined, freq: 2 }), junk)))
    .map(([t, ...vs]) =>
      op.parameters.map((p, i) => {
        const [valid, bad] = vs[i] as [string | undefined, string];
        return [p, i === t ? bad : p.required && valid === undefined ? bad : valid] as const;
      }),
    );
  const body = op.body
    ? fc.oneof({ arbitrary: bodyValue(op.body).map((v) => JSON.stringify(v)), weight: 4 }, { arbitrary: malformedJson, weight: 1 })
    : fc.constant(undefined);
  return fc
    .record({
      params,
      body,
      auth: fc.constantFrom('enterprise', 'enterprise', 'enterprise', 'free', 'hobby', 'none', 'wrong'),
      contentType: fc.constantFrom(
        'application/json',
        'application/json',
        'application/json; charset=utf-8',
        'application/json; charset=utf-16',
        'text/plain',
        '',
      ),
      gzip: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
    })
    .map(({ params: values, body: text, auth, contentType, gzip }) => {
      let path = op.path;
      const query: string[] = [];
      for (const [p, v] of values) {
        if (v === undefined) continue;
        if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(v));
        else if (p.in === 'query') query.push(`${encodeURIComponent(p.name)}=${enc(v)}`);
      }
      const headers: Record<string, string> = {};
      const key =
        auth === 'free' ? c.keys.free : auth === 'hobby' ? c.keys.hobby : auth === 'wrong' ? 'not-a-key-at-all' : c.keys.enterprise;
      if (auth !== 'none') headers['x-api-key'] = key;
      if (text !== undefined && contentType !== '') headers['content-type'] = contentType;
      if (text !== undefined && gzip) headers['content-encoding'] = 'gzip';
      return {
        method: op.method,
        path: path + (query.length > 0 ? `?${query.join('&')}` : ''),
        headers,
        ...(text !== undefined ? { body: text } : {}),
      };
    });
}

/** Statuses any operation may answer without listing them: a request id on every one still. */
const TRANSPORT_STATUSES = new Set([408, 413, 415, 431]);

describe('fuzzing every operation of the OpenAPI document', () => {
  let operations: Operation[] = [];
  beforeAll(async () => {
    const doc = (await c.sys.get('/api/v1/openapi.json')).body as {
      paths: Record<
        string,
        Record<
          string,
          {
            parameters?: OpenApiParameter[];
            requestBody?: { content: Record<string, { schema: JsonSchema }> };
            responses: Record<string, unknown>;
          }
        >
      >;
    };
    operations = Object.entries(doc.paths)
      .flatMap(
        ([path, ops]) =>
          Object.entries(ops).map(([method, op]) => ({
            method: method.toUpperCase(),
            path,
            parameters: op.parameters ?? [],
            body: op.requestBody?.content['application/json']?.schema ?? null,
            statuses: new Set(Object.keys(op.responses).map(Number)),
          })),
        // /mcp answers in JSON-RPC, not the REST envelope; test/mcp.e2e.test.ts drives its protocol errors.
      )
      .filter((o) => !o.path.endsWith('/mcp'));
  });

  it('has the operations to fuzz', () => {
    expect(operations.length).toBeGreaterThanOrEqual(20);
    expect(operations.some((o) => o.body !== null)).toBe(true);
  });

  /** The answer must be a 2xx/4xx the document lists for the operation, in the envelope, with a request id. */
  async function checkOperation(op: Operation, p: Probe): Promise<void> {
    const r = await send(p);
    checkEnvelope(p, r);
    const documented = op.statuses.has(r.status) || TRANSPORT_STATUSES.has(r.status) || (r.status === 401 && !op.path.endsWith('/health'));
    if (!documented)
      throw new Error(
        `undocumented ${r.status} for ${op.method} ${op.path}: ${p.method} ${p.path.slice(0, 200)} -> ${r.text.slice(0, 200)}`,
      );
  }

  it('answers every prototype name in every parameter and body field of every operation (an exhaustive sweep)', async () => {
    let requests = 0;
    for (const op of operations) {
      const headers = { 'x-api-key': c.keys.enterprise, 'content-type': 'application/json' };
      for (const name of PROTOTYPE_NAMES) {
        for (const param of op.parameters) {
          const path = op.path.replace(/\{(\w+)\}/g, (_, n: string) =>
            n === param.name ? encodeURIComponent(name) : encodeURIComponent(eventId),
          );
          const query = param.in === 'query' ? `?${param.name}=${encodeURIComponent(name)}` : '';
          const required = op.parameters
            .filter((q) => q.required && q.in === 'query' && q.name !== param.name)
            .map((q) => `${q.name}=${encodeURIComponent(q.schema.format === 'date-time' ? new Date().toISOString() : eventId)}`);
          const full = path + query + (required.length > 0 ? `${query ? '&' : '?'}${required.join('&')}` : '');
          await checkOperation(op, {
            method: op.method,
            path: full,
            headers,
            ...(op.body ? { body: JSON.stringify({ event_ids: [eventId] }) } : {}),
          });
          requests++;
        }
        for (const field of Object.keys(op.body?.properties ?? {})) {
          const body: Record<string, unknown> = { event_ids: [eventId], [field]: field === 'event_ids' ? [name, eventId] : name };
          await checkOperation(op, { method: op.method, path: op.path, headers, body: JSON.stringify(body) });
          requests++;
        }
      }
    }
    expect(requests).toBeGreaterThan(1000);
  }, 300_000);

  it(
    `answers ${OPERATION_RUNS} generated requests per operation with a documented 2xx/4xx in the envelope`,
    async () => {
      const seed = Number(process.env['FUZZ_SEED'] ?? Date.now() % 100_000);
      const deadline = Date.now() + Number(process.env['FUZZ_OPERATIONS_MS'] ?? 60_000);
      let requests = 0;
      for (const op of operations) {
        if (Date.now() > deadline) break;
        await fc.assert(
          fc.asyncProperty(operationProbe(op), async (p) => {
            requests++;
            await checkOperation(op, p);
          }),
          { numRuns: OPERATION_RUNS, seed, endOnFailure: true },
        );
      }
      expect(requests).toBeGreaterThanOrEqual(Math.min(operations.length * OPERATION_RUNS, 200));
    },
    Number(process.env['FUZZ_OPERATIONS_MS'] ?? 60_000) + 180_000,
  );
});
