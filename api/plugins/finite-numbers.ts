import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.js';

/**
 * Query values must be what they look like. Ajv's type coercion reads a query string with
 * JavaScript's `Number`, so `limit=0x10` was 16, `limit=1e1` 10 and `limit=%205` 5, and
 * `Infinity` slipped past `maximum`; a `YYYY-MM-DD` pattern let `2026-02-30` through. Before
 * validation, every number parameter must be written in plain decimal and every date must be
 * on the calendar; after it, every coerced number must be finite. Each refusal is 400 naming
 * the field.
 */
export const finiteNumbersPlugin = fp(async (app: FastifyInstance) => {
  // No I/O: the hooks call `done` rather than return a promise (a microtask turn each per request).
  // A refusal thrown here reaches Fastify's error handling as a rejected promise did.
  app.addHook('preValidation', (request, _reply, done) => {
    const schema = request.routeOptions.schema?.querystring as { properties?: Record<string, PropertySchema> } | undefined;
    const query = request.query;
    if (schema?.properties && query !== null && typeof query === 'object') {
      for (const [name, raw] of Object.entries(query as Record<string, unknown>)) {
        if (!Object.hasOwn(schema.properties, name)) continue;
        const property = schema.properties[name] as PropertySchema;
        for (const v of Array.isArray(raw) ? raw : [raw]) if (typeof v === 'string') checkLiteral(name, property, v);
      }
    }
    done();
  });
  app.addHook('preHandler', (request, _reply, done) => {
    checkFinite(request.query, 'query parameter');
    checkFinite(request.body, 'body field');
    done();
  });
});

interface PropertySchema {
  type?: string | string[];
  format?: string;
  pattern?: string;
}

const INTEGER = /^-?\d+$/;
const DECIMAL = /^-?(\d+(\.\d*)?|\.\d+)$/;
const DATE_PREFIX = /^(\d{4})-(\d{2})-(\d{2})/;

/** A YYYY-MM-DD that names a real day (2026-02-30 and 2026-13-01 do not). */
export function isCalendarDate(text: string): boolean {
  const m = DATE_PREFIX.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  return date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

function checkLiteral(name: string, property: PropertySchema, value: string): void {
  const types = Array.isArray(property.type) ? property.type : [property.type];
  if (types.includes('integer') && !types.includes('string') && !INTEGER.test(value)) {
    throw new ApiError(
      'invalid_request',
      `Invalid query parameter '${name}': must be an integer in decimal digits, got '${value.slice(0, 40)}'`,
    );
  }
  if (types.includes('number') && !types.includes('string') && !DECIMAL.test(value)) {
    throw new ApiError('invalid_request', `Invalid query parameter '${name}': must be a decimal number, got '${value.slice(0, 40)}'`);
  }
  const isDate =
    property.format === 'date' || property.format === 'date-time' || (property.pattern?.startsWith('^\\d{4}-\\d{2}-\\d{2}') ?? false);
  if (types.includes('string') && isDate && DATE_PREFIX.test(value) && !isCalendarDate(value)) {
    throw new ApiError('invalid_request', `Invalid query parameter '${name}': '${value.slice(0, 40)}' is not a calendar date`);
  }
}

function checkFinite(values: unknown, where: string): void {
  if (values === null || typeof values !== 'object' || Array.isArray(values)) return;
  for (const [name, v] of Object.entries(values as Record<string, unknown>)) {
    if (typeof v === 'number' && !Number.isFinite(v))
      throw new ApiError('invalid_request', `Invalid ${where} '${name}': must be a finite number`);
    if (Array.isArray(v) && v.some((x) => typeof x === 'number' && !Number.isFinite(x)))
      throw new ApiError('invalid_request', `Invalid ${where} '${name}': must be finite numbers`);
  }
}
