import { Ajv } from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormatsPlugin from 'ajv-formats';

/** The outcome of checking a tool's arguments: the coerced arguments, or a message naming the argument. */
export type Checked = { ok: true; args: Record<string, unknown> } | { ok: false; message: string };

/**
 * Tool arguments are checked against the tool's JSON Schema with the REST routes' conventions:
 * defaults filled in, a single value accepted where a list is expected, and the first problem
 * reported in words that name the argument.
 */
export class ArgumentChecker {
  private readonly ajv = new Ajv({ coerceTypes: 'array', useDefaults: true, allErrors: false, strict: false });

  constructor() {
    addFormats(this.ajv);
  }
  private readonly schemas = new Map<string, object>();
  private readonly compiled = new Map<string, ValidateFunction>();

  add(tool: string, schema: object): void {
    this.schemas.set(tool, schema);
  }

  /** Compiled on first use: a process that serves no MCP pays nothing at start. */
  private validator(tool: string): ValidateFunction | undefined {
    let validate = this.compiled.get(tool);
    const schema = this.schemas.get(tool);
    if (!validate && schema) {
      validate = this.ajv.compile(schema);
      this.compiled.set(tool, validate);
    }
    return validate;
  }

  check(tool: string, raw: unknown): Checked {
    const validate = this.validator(tool);
    if (!validate) return { ok: false, message: `Unknown tool '${tool}'` };
    // A copy: ajv fills defaults and coerces in place.
    const args: Record<string, unknown> =
      raw && typeof raw === 'object' && !Array.isArray(raw) ? { ...(raw as Record<string, unknown>) } : {};
    if (raw !== undefined && raw !== null && (typeof raw !== 'object' || Array.isArray(raw)))
      return { ok: false, message: 'Invalid arguments: must be an object' };
    if (validate(args)) return { ok: true, args };
    return { ok: false, message: describe(validate.errors?.[0], validate.schema) };
  }
}

// ajv-formats is CommonJS: its default export arrives as the module object under NodeNext.
const addFormats = addFormatsPlugin as unknown as (ajv: Ajv) => Ajv;

function describe(error: ErrorObject | undefined, schema: unknown): string {
  if (!error) return 'Invalid arguments';
  const params = error.params as Record<string, unknown>;
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
  const detail = Array.isArray(allowed) ? `must be one of ${allowed.join(', ')}` : (error.message ?? 'is invalid');
  return name === '' ? `Invalid arguments: ${detail}` : `Invalid argument '${name}': ${detail}`;
}
