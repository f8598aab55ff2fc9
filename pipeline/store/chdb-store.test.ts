import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChdbStore } from './chdb-store.js';
import { describeStoreContract } from '../../test/support/store-contract.js';

describeStoreContract('ChdbStore (embedded)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'odds-store-'));
  return { store: new ChdbStore(dir), cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
});
