/** A chDB failure as ClickHouse reports it: its code and its reason. */
export interface EngineFailure {
  /** ClickHouse's error code (60 UNKNOWN_TABLE, 62 SYNTAX_ERROR, ...); 0 when the failure carries none. */
  code: number;
  /** The innermost message's first line, without the engine's version; it ends in the error's name, e.g. `(UNKNOWN_TABLE)`, when the engine gave one. */
  reason: string;
}

export function engineFailure(e: unknown): EngineFailure {
  const message = e instanceof Error ? e.message : String(e);
  const coded = (e as { clickhouseCode?: unknown } | null)?.clickhouseCode;
  const code = typeof coded === 'number' ? coded : Number(/Code: (\d+)/.exec(message)?.[1] ?? 0);
  // The engine nests its own "Code: N. DB::Exception:" prefixes; the last message is the reason.
  const reason =
    (message.split('DB::Exception: ').pop() ?? message)
      .split('\n')[0]
      ?.replace(/\s*\(version [^)]*\)\.?/g, '')
      .trim() ?? message;
  return { code, reason };
}
