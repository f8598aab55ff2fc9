import { ChdbStore } from '../../pipeline/store/index.js';

/**
 * `tsx test/support/chdb-query.ts DIR SQL`: prints the rows as one JSON array. chDB binds one
 * data directory per process, so a test that inspects several processes' stores asks a child.
 */
const [dir, sql] = process.argv.slice(2);
if (!dir || !sql) throw new Error('usage: chdb-query.ts DIR SQL');
const store = new ChdbStore(dir);
process.stdout.write(JSON.stringify(await store.query(sql)));
await store.close();
