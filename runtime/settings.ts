import { accessSync, constants, statSync } from 'node:fs';
import { SETTINGS } from '../schemas/index.js';
import type { SettingDef, SettingName } from '../schemas/index.js';

// The table itself is a contract every layer reads (components take their defaults from it).
export { SETTINGS } from '../schemas/index.js';
export type { SettingDef, SettingKind, SettingName } from '../schemas/index.js';

const BY_NAME = new Map<string, SettingDef>(SETTINGS.map((s) => [s.name, s]));

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

/** Typed, validated reads of the environment, each by a name the table declares. */
export class Settings {
  constructor(private readonly env: Env) {}

  private def(name: SettingName): SettingDef {
    const d = BY_NAME.get(name);
    if (!d) throw new Error(`undeclared setting ${name}`);
    return d;
  }

  /** The raw text (the default when unset or empty), validated; null when unset without default. */
  raw(name: SettingName): string | null {
    const d = this.def(name);
    const given = this.env[name];
    const value = given === undefined || given === '' ? (d.default ?? null) : given;
    if (value === null || (value === '' && given === undefined)) return value;
    const problem = validate(d, value);
    if (problem) throw new ConfigError(`${name} ${problem}, got ${JSON.stringify(d.kind === 'secret' ? '<hidden>' : value)}`);
    return value;
  }

  string(name: SettingName): string {
    return this.raw(name) ?? '';
  }

  optional(name: SettingName): string | null {
    return this.raw(name);
  }

  int(name: SettingName): number {
    return Number(this.raw(name));
  }

  list(name: SettingName): string[] | null {
    const v = this.raw(name);
    return v === null
      ? null
      : v
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s.length > 0);
  }

  isSet(name: SettingName): boolean {
    const v = this.env[name];
    return v !== undefined && v !== '';
  }
}

function validate(d: SettingDef, value: string): string | null {
  switch (d.kind) {
    case 'int':
    case 'number': {
      const n = Number(value.trim() === '' ? NaN : value);
      const ok = d.kind === 'int' ? Number.isInteger(n) && /^-?\d+$/.test(value.trim()) : Number.isFinite(n);
      if (!ok || (d.min !== undefined && n < d.min) || (d.max !== undefined && n > d.max)) {
        return `must be ${d.kind === 'int' ? 'an integer' : 'a number'} from ${d.min ?? '-inf'} to ${d.max ?? 'inf'}`;
      }
      break;
    }
    case 'enum':
      if (!(d.values ?? []).includes(value)) return `must be one of ${(d.values ?? []).join(', ')}`;
      break;
    case 'url': {
      let url: URL | null = null;
      try {
        url = new URL(value);
      } catch {
        url = null;
      }
      const schemes = d.schemes ?? ['http', 'https'];
      if (!url || !schemes.includes(url.protocol.slice(0, -1))) return `must be a ${schemes.map((s) => `${s}://`).join(' or ')} URL`;
      break;
    }
    case 'file':
      try {
        const st = statSync(value);
        if (!st.isFile()) return 'must name a file, and this is not one';
        accessSync(value, constants.R_OK);
      } catch (e) {
        return `names a file that cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`;
      }
      break;
    case 'list':
      if (value.split(',').every((s) => s.trim() === '')) return 'must be a comma-separated list';
      break;
    default:
      break;
  }
  return d.check ? d.check(value) : null;
}

/** The README's configuration table, generated from the settings table. */
export function renderSettingsTable(): string {
  const rows = SETTINGS.map((s: SettingDef) => {
    const bounds =
      s.kind === 'enum' ? ` (${(s.values ?? []).map((v) => `\`${v}\``).join(', ')})` : s.kind === 'int' ? ` (${s.min}-${s.max})` : '';
    const def = s.default === undefined || s.default === '' ? '' : `\`${s.default}\``;
    return `| \`${s.name}\` | ${def} | ${s.doc}${bounds} |`;
  });
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}
