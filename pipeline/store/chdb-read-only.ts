import { randomUUID } from 'node:crypto';
import { chdb } from './chdb-module.js';
import { engineFailure } from './engine-failure.js';
import { isPlainName, stringLiteral } from './clickhouse-http.js';

/**
 * Bounds on one read-only statement, set as ClickHouse settings before `readonly = 1` locks
 * every setting of the session (a statement's own `SETTINGS` cannot lift them).
 */
export interface ReadOnlyLimits {
  maxExecutionSeconds: number;
  maxMemoryBytes: number;
  maxRowsToRead: number;
  maxResultBytes: number;
  /** Engine threads per statement: what is left of the cores serves the API and the pipeline. */
  maxThreads: number;
}

export interface ReadOnlyStatement {
  sql: string;
  /** Output format when the statement names none (`FORMAT ...`). */
  defaultFormat: string;
  limits: ReadOnlyLimits;
  /** Values of the statement's `{name:Type}` placeholders (the HTTP interface's `param_name`), bound by the engine. */
  params?: ReadonlyMap<string, string>;
  /** Aborting cancels the statement in the engine (the client went away). */
  signal?: AbortSignal;
}

/** A statement refused or failed, with ClickHouse's own error code (164 READONLY, 159 TIMEOUT_EXCEEDED, ...). */
export class ReadOnlyQueryError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
    this.name = 'ReadOnlyQueryError';
  }
}

export const READONLY_CODE = 164;
const SYNTAX_ERROR_CODE = 62;
const BAD_ARGUMENTS_CODE = 36;
const QUERY_WAS_CANCELLED_CODE = 394;

/**
 * Root node kinds of `EXPLAIN AST` that only read: selects, the SHOW/DESCRIBE/EXISTS family and
 * EXPLAIN of those. Everything else (KILL, SYSTEM, USE, SET, CHECK, SHOW GRANTS/ACCESS, writes,
 * DDL) is refused here: the engine's `readonly = 1` refuses writes and setting changes, but not
 * KILL QUERY or every SYSTEM command, which the embedded engine runs outside that check.
 */
const READ_KINDS: ReadonlySet<string> = new Set([
  'SelectWithUnionQuery',
  'SelectIntersectExceptQuery',
  'ShowTables',
  'ShowColumns',
  'ShowFunctions',
  'ShowEngineQuery',
  'ShowProcesslistQuery',
  'ShowCreateTableQuery',
  'ShowCreateDatabaseQuery',
  'ExistsTableQuery',
  'ExistsDatabaseQuery',
  'DescribeQuery',
  'Explain',
]);

/** The statement's root kind, and whether it writes a file or describes a table function. */
export interface StatementShape {
  kind: string;
  /** `INTO OUTFILE`: the embedded engine's client layer writes the file, readonly or not. */
  writesFile: boolean;
  /** `DESCRIBE file(...)` / `url(...)`: schema inference reads outside the store, readonly or not. */
  describesFunction: boolean;
  /** For EXPLAIN: the kind of the statement it explains. */
  explained: string | null;
}

/**
 * Reads the shape of a statement from the engine's own `EXPLAIN AST` dump: one line per node,
 * indented one space per level. A root's direct `Literal` child is the OUTFILE name (the root's
 * other direct children are expression lists, the FORMAT identifier and SETTINGS).
 */
export function statementShape(ast: string): StatementShape {
  const lines = ast.split('\n').filter((l) => l.trim().length > 0);
  const kindOf = (line: string | undefined): string => /^\s*([A-Za-z]+)/.exec(line ?? '')?.[1] ?? '';
  const depthOf = (line: string): number => line.length - line.trimStart().length;
  const kind = kindOf(lines[0]);
  const children = lines.slice(1).filter((l) => depthOf(l) === 1);
  const grandchildren = (parent: string): string[] => {
    const at = lines.indexOf(parent);
    const out: string[] = [];
    for (const l of lines.slice(at + 1)) {
      if (depthOf(l) <= 1) break;
      if (depthOf(l) === 2) out.push(l);
    }
    return out;
  };
  const table = children.find((c) => kindOf(c) === 'TableExpression');
  return {
    kind,
    writesFile: children.some((c) => kindOf(c) === 'Literal'),
    describesFunction: kind === 'DescribeQuery' && table !== undefined && grandchildren(table).some((g) => kindOf(g) === 'Function'),
    explained: kind === 'Explain' ? kindOf(children.find((c) => kindOf(c) !== 'Literal')) : null,
  };
}

/** Why a statement of this shape is not run, or null when it only reads the store. */
export function shapeRefusal(shape: StatementShape): string | null {
  if (!READ_KINDS.has(shape.kind)) return `Cannot execute query in readonly mode: ${shape.kind || 'this'} statements are not reads`;
  if (shape.explained !== null && (!READ_KINDS.has(shape.explained) || shape.explained === 'Explain'))
    return `Cannot execute query in readonly mode: EXPLAIN of ${shape.explained || 'this'} statements`;
  if (shape.writesFile) return 'Cannot execute query in readonly mode: INTO OUTFILE writes a file';
  if (shape.describesFunction) return 'Cannot execute query in readonly mode: DESCRIBE of a table function reads outside the store';
  return null;
}

/**
 * One `SET`: the statement's parameters, every limit, the tag that finds the statement to cancel
 * it, then readonly last. Parameters go in here, as the text the client sent, because chDB's own
 * binding escapes a string value again: `O\'Brien`, which is how `@clickhouse/client` sends
 * O'Brien, would bind as that text, backslash included. This SET runs before readonly, so a
 * name is only ever a plain name and a value only ever a literal.
 */
function lockingSettings(limits: ReadOnlyLimits, tag: string, params: ReadonlyMap<string, string>): string {
  const int = (n: number): string => String(Math.max(0, Math.floor(n)));
  const assignments: string[] = [];
  for (const [name, value] of params) {
    if (!isPlainName(name))
      throw new ReadOnlyQueryError(
        `Query parameter 'param_${name}' is not a valid parameter name (letters, digits and _ only)`,
        BAD_ARGUMENTS_CODE,
      );
    assignments.push(`param_${name} = ${stringLiteral(value)}`);
  }
  return [
    ...assignments,
    `max_execution_time = ${int(limits.maxExecutionSeconds)}`,
    "timeout_overflow_mode = 'throw'",
    `max_memory_usage = ${int(limits.maxMemoryBytes)}`,
    `max_rows_to_read = ${int(limits.maxRowsToRead)}`,
    "read_overflow_mode = 'throw'",
    `max_result_bytes = ${int(limits.maxResultBytes)}`,
    "result_overflow_mode = 'throw'",
    `max_threads = ${int(Math.max(1, limits.maxThreads))}`,
    `log_comment = '${tag}'`,
    'readonly = 1',
  ].join(', ');
}

function failure(e: unknown): ReadOnlyQueryError {
  if (e instanceof ReadOnlyQueryError) return e;
  const { reason, code } = engineFailure(e);
  return new ReadOnlyQueryError(reason, code);
}

/**
 * Runs one analyst statement on the embedded engine so that the engine itself refuses writes:
 * a session of its own on the store's data directory (chDB shares the connection; settings are
 * per session), its limits set and then `readonly = 1`, which no later `SET` or `SETTINGS`
 * clause can lift. The statement is first parsed by the engine (`formatQuerySingleLine` on a
 * string literal, so the text stays data): anything but exactly one statement is refused, and
 * its `EXPLAIN AST` root must be a read (see `READ_KINDS`). The canonical text is what runs, so
 * what was checked is what executes.
 *
 * Cancelling: `kill(tag)` runs `KILL QUERY` from the store's own session (the analyst session
 * may not kill), on `signal` and at a wall-clock deadline a little past `max_execution_time`,
 * which also bounds work the engine does not time (one long function call).
 */
export async function runReadOnly(
  dataDir: string,
  statement: ReadOnlyStatement,
  kill: (tag: string) => Promise<void>,
): Promise<Uint8Array> {
  const tag = `analyst-${randomUUID()}`;
  const session = new (chdb().Session)(dataDir);
  let deadline: NodeJS.Timeout | null = null;
  const cancel = (): void => void kill(tag).catch(() => undefined);
  try {
    await session.queryAsync(`SET ${lockingSettings(statement.limits, tag, statement.params ?? new Map())}`);
    let canonical: string;
    try {
      // A literal, not a bound parameter: the client's own parameters are the session's now.
      canonical = (await session.queryAsync(`SELECT formatQuerySingleLine(${stringLiteral(statement.sql)})`, { format: 'TabSeparatedRaw' }))
        .text()
        .replace(/\n$/, '');
    } catch (e) {
      const f = failure(e);
      // The formatQuerySingleLine wrapper is ours: report the analyst's statement's syntax error alone.
      throw new ReadOnlyQueryError(f.message.replace(/: In scope SELECT formatQuerySingleLine[\s\S]*$/, ''), f.code || SYNTAX_ERROR_CODE);
    }
    if (canonical.trim().length === 0) throw new ReadOnlyQueryError('Empty query', SYNTAX_ERROR_CODE);
    const run = (sql: string, format: string) => session.queryAsync(sql, { format });
    const shape = statementShape((await run(`EXPLAIN AST ${canonical}`, 'TabSeparatedRaw')).text());
    const refused = shapeRefusal(shape);
    if (refused !== null) throw new ReadOnlyQueryError(refused, READONLY_CODE);
    if (statement.signal?.aborted) throw new ReadOnlyQueryError('Query was cancelled: the client went away', QUERY_WAS_CANCELLED_CODE);
    statement.signal?.addEventListener('abort', cancel, { once: true });
    deadline = setTimeout(cancel, (statement.limits.maxExecutionSeconds + 5) * 1000);
    const result = await run(canonical, statement.defaultFormat);
    return result.bytes();
  } catch (e) {
    throw failure(e);
  } finally {
    if (deadline) clearTimeout(deadline);
    statement.signal?.removeEventListener('abort', cancel);
    session.close();
  }
}
