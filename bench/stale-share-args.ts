import { settingDefault } from '../schemas/index.js';

/**
 * The command line of `bench/stale-share.ts`, positional, each `-` or absent for its default:
 * `[minutes=5] [staleCadenceFactor] [partitions=1] [ticksPerSecond] [splitsSeconds] [seed=42]`.
 * The defaults of the last three are `make run`'s settings (`SIM_TICKS_PER_SECOND`,
 * `SPLITS_INTERVAL_SECONDS`, `SIM_SEED`); the cadence factor's is the opportunity processor's own.
 */
export interface StaleShareArgs {
  minutes: number;
  /** Undefined: the processor's default. */
  staleCadenceFactor: number | undefined;
  partitions: number;
  ticksPerSecond: number;
  splitsSeconds: number;
  seed: number;
}

const NAMES = ['minutes', 'staleCadenceFactor', 'partitions', 'ticksPerSecond', 'splitsSeconds', 'seed'] as const;

/**
 * Reads the arguments, or throws a RangeError naming the first one that is not a value the bench
 * can run with (a seed out of `SIM_SEED`'s range used to reach the simulator's own check, and a
 * word where a number belongs ran the bench on NaN).
 */
export function staleShareArgs(argv: readonly string[]): StaleShareArgs {
  if (argv.length > NAMES.length) throw new RangeError(`at most ${NAMES.length} arguments (${NAMES.join(' ')}), got ${argv.length}`);
  const given = (i: number): string | undefined => (argv[i] === undefined || argv[i] === '-' ? undefined : argv[i]);
  const number = (i: number, fallback: number, ok: (n: number) => boolean, what: string): number => {
    const raw = given(i);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (raw.trim() === '' || !ok(n)) throw new RangeError(`${NAMES[i]} must be ${what}, got ${JSON.stringify(raw)}`);
    return n;
  };
  const positive = (n: number): boolean => Number.isFinite(n) && n > 0;
  const [seedMin, seedMax] = [0, 2 ** 31 - 1];
  const factor = given(1) === undefined ? undefined : number(1, 0, positive, 'a positive number');
  return {
    minutes: number(0, 5, positive, 'a positive number'),
    staleCadenceFactor: factor,
    partitions: number(2, 1, (n) => Number.isInteger(n) && n >= 1 && n <= 64, 'a whole number from 1 to 64'),
    ticksPerSecond: number(3, settingDefault('SIM_TICKS_PER_SECOND'), positive, 'a positive number'),
    splitsSeconds: number(
      4,
      settingDefault('SPLITS_INTERVAL_SECONDS'),
      (n) => Number.isFinite(n) && n >= 0,
      'a number of seconds, 0 or more (0: no splits)',
    ),
    seed: number(
      5,
      settingDefault('SIM_SEED'),
      (n) => Number.isInteger(n) && n >= seedMin && n <= seedMax,
      `a whole number from ${seedMin} to ${seedMax} (SIM_SEED's range)`,
    ),
  };
}
