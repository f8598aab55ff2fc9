import type { ErrorObject } from 'ajv';
import type { FastifyRequest } from 'fastify';
import { notOneOf } from '../contract/index.js';

/** The outcome of checking a tool's arguments: the coerced arguments, or a message naming the argument. */
export type Checked = { ok: true; args: Record<string, unknown> } | { ok: false; message: string };

/**
 * Compiles a JSON Schema with the validator compiler of the `/mcp` request that carries the call:
 * the app's own (`request.compileValidationSchema`: the Ajv build and options that check the REST
 * routes' parameters; Fastify keeps each compiled schema, so a tool's is compiled once).
 */
export type SchemaCompiler = (schema: object) => ReturnType<FastifyRequest['compileValidationSchema']>;

/**
 * Tool arguments are checked against the tool's JSON Schema by the compiler that checks the
 * routes, so coercion, defaults and formats are the routes' own: defaults filled in, a single
 * value accepted where a list is expected, and the first problem reported in words that name the
 * argument.
 */
export class ArgumentChecker {
  private readonly schemas = new Map<string, object>();

  add(tool: string, schema: object): void {
    this.schemas.set(tool, schema);
  }

  check(tool: string, raw: unknown, compile: SchemaCompiler): Checked {
    const schema = this.schemas.get(tool);
    if (!schema) return { ok: false, message: `Unknown tool '${tool}'` };
    // A copy: ajv fills defaults and coerces in place.
    const args: Record<string, unknown> =
      raw && typeof raw === 'object' && !Array.isArray(raw) ? { ...(raw as Record<string, unknown>) } : {};
    if (raw !== undefined && raw !== null && (typeof raw !== 'object' || Array.isArray(raw)))
      return { ok: false, message: 'Invalid arguments: must be an object' };
    const validate = compile(schema);
    if (validate(args)) return { ok: true, args };
    return { ok: false, message: describe(validate.errors?.[0], schema) };
  }
}

function describe(error: ErrorObject | undefined, schema: object): string {
  if (!error) return 'Invalid arguments';
  const params: Record<string, unknown> = error.params;
  const missing = params['missingProperty'];
  if (typeof missing === 'string') return `Missing required argument '${missing}'`;
  const extra = params['additionalProperty'];
  if (typeof extra === 'string') {
    const known = Object.keys((schema as { properties?: object }).properties ?? {});
    return `Unknown argument '${extra}' (arguments: ${known.join(', ')})`;
  }
  const path = error.instancePath.replace(/^\//, '').split('/');
  const name = path.map((p, i) => (i > 0 && /^\d+$/.test(p) ? `[${p}]` : i > 0 ? `.${p}` : p)).join('');
  const allowed = params['allowedValues'];
  const detail = Array.isArray(allowed) ? notOneOf(allowed, error.data) : (error.message ?? 'is invalid');
  return name === '' ? `Invalid arguments: ${detail}` : `Invalid argument '${name}': ${detail}`;
}
