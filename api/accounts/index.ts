export { Accounts, loadAccountChanges, startAccounts } from './accounts.js';
export type { AccountsReplica, KeyOptions, NewKey, Rotation } from './accounts.js';
export { KeyStore, keyStatus } from './key-store.js';
export type { AuthenticatedKey, KeyStatus } from './key-store.js';
export { UsageRecorder, periodStarts } from './usage.js';
export type { AccountUsage, PeriodCounts, UsageOptions } from './usage.js';
export { ensureKeys, loadOrCreateDemoSecrets, parseApiKeys } from './demo-keys.js';
export { hashSecret, newSecret, previewOf } from './secrets.js';
