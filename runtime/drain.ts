/**
 * Waits until `lag()` is zero: true when it got there, false after `timeoutMs` or as soon as
 * `abandon()` says waiting is pointless (a failed stage never catches up).
 */
export async function drain(lag: () => number, timeoutMs: number, abandon: () => boolean = () => false): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (lag() > 0) {
    if (abandon() || Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}
