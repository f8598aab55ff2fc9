/**
 * The command line of `heap-profile-diff`: the profiles in the order given, and `--rows N`
 * anywhere among them (25 when absent). Null when it cannot be run: fewer than two profiles, or a
 * row count that is not a positive integer.
 */
export function heapDiffArgs(args: readonly string[]): { files: string[]; rows: number } | null {
  const at = args.indexOf('--rows');
  const rows = at >= 0 ? Number(args[at + 1]) : 25;
  // Without `--rows`, `at` is -1 and `at + 1` is 0: the old filter dropped the first profile.
  const files = at >= 0 ? args.filter((_, i) => i !== at && i !== at + 1) : [...args];
  if (files.length < 2 || !Number.isInteger(rows) || rows <= 0) return null;
  return { files, rows };
}
