import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { TIER_NAMES } from '../schemas/index.js';
import type { TierName } from '../schemas/index.js';
import { KafkaBus } from '../pipeline/bus/index.js';
import type { Bus } from '../pipeline/bus/index.js';
import { applyMigrations } from '../pipeline/store/index.js';
import type { OlapStore } from '../pipeline/store/index.js';
import { Accounts, KeyStore, loadAccountChanges } from '../api/accounts/index.js';
import { CommandStoreError, openCommandStore } from './command-store.js';
import { loadConfig } from './config.js';

const USAGE = 'usage: make key TIER=free|hobby|pro|sharp|enterprise NAME="who it is for" [ACCOUNT=acct_...] [RPM=requests per minute]';

export class KeyCommandError extends Error {}

/**
 * `make key`: creates an account (or adds to `--account`) and a key straight in the key store,
 * without the API, and returns the lines to print (the secret among them, once). With Kafka
 * configured the change is also published, so running API replicas accept the key within a
 * second; on the embedded store the service must be stopped (chDB allows one process).
 */
export async function runKeyCommand(argv: readonly string[], env: Record<string, string | undefined>): Promise<string[]> {
  const { values } = parseArgs({
    args: [...argv],
    options: { tier: { type: 'string' }, name: { type: 'string' }, account: { type: 'string' }, rpm: { type: 'string' } },
    strict: true,
  });
  const tier = values.tier ?? '';
  if (!(TIER_NAMES as readonly string[]).includes(tier))
    throw new KeyCommandError(`TIER must be one of ${TIER_NAMES.join(', ')}\n${USAGE}`);
  const name = (values.name ?? '').trim();
  if (name.length === 0 || name.length > 100) throw new KeyCommandError(`NAME is required (1 to 100 characters)\n${USAGE}`);
  const rpm = values.rpm === undefined || values.rpm === '' ? null : Number(values.rpm);
  if (rpm !== null && !(Number.isInteger(rpm) && rpm > 0 && rpm <= 10_000_000))
    throw new KeyCommandError(`RPM must be a whole number of requests per minute\n${USAGE}`);

  const config = loadConfig(env);
  let store: OlapStore;
  try {
    store = openCommandStore(config);
  } catch (e) {
    if (e instanceof CommandStoreError) throw new KeyCommandError(e.message);
    throw e;
  }
  const bus: Bus | null = config.kafkaBrokers ? new KafkaBus({ brokers: config.kafkaBrokers }) : null;
  try {
    await applyMigrations(store);
    const keys = new KeyStore();
    for (const change of await loadAccountChanges(store)) keys.apply(change);
    const accounts = new Accounts(keys, store, bus?.producer() ?? null, Date.now);
    let accountId = values.account;
    if (accountId !== undefined && !keys.account(accountId)) throw new KeyCommandError(`no account '${accountId}'`);
    accountId ??= (await accounts.createAccount(name)).id;
    const { record, secret } = await accounts.createKey(accountId, { tier: tier as TierName, name, requestsPerMinute: rpm });
    return [
      `account ${accountId}   key ${record.id}   tier ${record.tier}${rpm === null ? '' : `   ${rpm} requests/min`}`,
      `secret (shown once, keep it safe): ${secret}`,
    ];
  } finally {
    await bus?.close();
    await store.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runKeyCommand(process.argv.slice(2), process.env).then(
    (lines) => process.stdout.write(lines.join('\n') + '\n'),
    (e: unknown) => {
      process.stderr.write(`make key: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(2);
    },
  );
}
