import { Ajv } from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { FastifyRequest } from 'fastify';

/**
 * Response schemas as a contract check. Serialization applies a route's response schema
 * silently: a field the schema does not declare is dropped, so a presenter can drift from its
 * schema (and the OpenAPI document generated from it) without any answer showing it. This
 * validates the body as the handler produced it against the schema made strict: every object
 * that lists `properties` without saying otherwise gets `additionalProperties: false`, and
 * `required` is checked as written.
 */
export function strictSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strictSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema))
    out[k] = k === 'properties' ? Object.fromEntries(Object.entries(v as object).map(([p, s]) => [p, strictSchema(s)])) : strictSchema(v);
  if ('properties' in out && !('additionalProperties' in out)) out['additionalProperties'] = false;
  return out;
}

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
const compiled = new WeakMap<object, ValidateFunction>();

export function validatorFor(schema: object): ValidateFunction {
  let v = compiled.get(schema);
  if (!v) {
    v = ajv.compile(strictSchema(schema) as object);
    compiled.set(schema, v);
  }
  return v;
}

/** The JSON response schema a route declares for a status (the JSON branch of a `content` map). */
export function responseSchemaOf(request: FastifyRequest, status: number): object | undefined {
  const responses = request.routeOptions.schema?.response as Record<string, unknown> | undefined;
  const s = (responses?.[String(status)] ?? responses?.[`${String(status)[0]}xx`]) as Record<string, unknown> | undefined;
  if (!s) return undefined;
  const content = s['content'] as Record<string, { schema: object }> | undefined;
  return content ? content['application/json']?.schema : s;
}

export interface SchemaViolation {
  route: string;
  status: number;
  errors: ErrorObject[];
}

/** Collects every answer body of a running system with its route schema, and checks them. */
export class PayloadRecorder {
  readonly seen = new Map<string, number>();
  readonly violations: SchemaViolation[] = [];
  readonly unschemed: string[] = [];

  inspect = (request: FastifyRequest, status: number, payload: unknown): void => {
    const route = `${request.method} ${request.routeOptions.url ?? request.url}`;
    const schema = responseSchemaOf(request, status);
    this.seen.set(`${route} ${status}`, (this.seen.get(`${route} ${status}`) ?? 0) + 1);
    if (!schema) {
      this.unschemed.push(`${route} ${status}`);
      return;
    }
    // Compare what goes on the wire: JSON, so undefined members are absent.
    const body: unknown = JSON.parse(JSON.stringify(payload));
    const validate = validatorFor(schema);
    if (!validate(body)) this.violations.push({ route, status, errors: validate.errors ?? [] });
  };
}
