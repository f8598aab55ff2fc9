/**
 * A start that cannot go on because of a setting or a file the operator controls. The entry
 * prints its message as one line and exits non-zero: it must name the setting or the file and
 * say what is wrong with it, never carry a stack trace.
 */
export class StartupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StartupError';
  }
}

/** The first line of an error's message: what a one-line report can carry. */
export function firstLine(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return (text.split('\n').find((l) => l.trim().length > 0) ?? text).trim();
}
