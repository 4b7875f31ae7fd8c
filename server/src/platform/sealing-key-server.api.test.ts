import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { messages } from '@lp/contract/common/errors';
import { afterAll, describe, expect, it } from 'vitest';
import { buildLicenseServer } from '../../harness/factories.ts';
import { freePort } from '../../harness/free-port.ts';
import { buildAccountFixture } from '../../test/account-fixture.ts';
import { startServer, waitForLog, waitReady } from '../../test/server-process.ts';
import { createTestDatabase, migratedDataDir, type TestDatabase } from '../../test/test-db.ts';
import { type Database, migrateDatabase, openPglite } from '../db/database.ts';
import { elasticServerSettings } from '../db/schema.ts';
import { loadConfig } from './config.ts';
import { sealedAs, sealingKey } from './sealing-key.ts';
import { seal } from './secret-box.ts';

/**
 * Decision 043, as an operator meets it: `npm start` with a key that does not open the database's secrets logs the
 * fix at start and on each refused call, and answers those calls 503 in the envelope.
 */

const CN = '4300011';
const CLS = 'SEALED-CLS-11';
const KEY_A = randomBytes(32).toString('hex');
const KEY_B = randomBytes(32).toString('hex');
const dataDir = await migratedDataDir('sealed-server');
let pgDatabase: TestDatabase | undefined;

afterAll(async () => {
  await pgDatabase?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** An account administrator and an elastic server whose PIN is sealed with KEY_A; answers the session headers. */
async function sealWithKeyA(database: Database) {
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PIN_ENCRYPTION_KEY: KEY_A });
  const { boss } = await buildAccountFixture(database.db, CN, '4300012');
  await buildLicenseServer(database.db, CN, { hostIdentity: CLS, kind: 'elastic' });
  const key = await sealingKey({ db: database.db, config });
  await database.db.insert(elasticServerSettings).values({
    customerNumber: CN,
    elasticServerId: CLS,
    pinCipher: seal(key, '042917', sealedAs.pin(CN, CLS)),
  });
  return boss;
}

describe('a server started with another key', () => {
  it('logs the fix at start and on a refused call, and answers the PIN read 503', async () => {
    const env: Record<string, string> = {
      PORT: String(await freePort()),
      DATA_DIR: dataDir,
      PIN_ENCRYPTION_KEY: KEY_B,
    };
    let boss: Record<string, string>;
    if (process.env.TEST_ENGINE === 'postgres') {
      pgDatabase = await createTestDatabase();
      env.DATABASE_URL = pgDatabase.url!;
      boss = await sealWithKeyA(pgDatabase);
    } else {
      // The server's own PGlite folder, prepared here and closed before the server opens it.
      const database = await openPglite(path.join(dataDir, 'pglite'));
      try {
        await migrateDatabase(database);
        boss = await sealWithKeyA(database);
      } finally {
        await database.close();
      }
    }
    const proc = startServer(env);
    try {
      await waitReady(proc);
      const atStart = await waitForLog(proc, (l) => typeof l.fix === 'string');
      expect(atStart.level).toBe(50);
      expect(atStart.fix).toMatch(/^PIN_ENCRYPTION_KEY does not open the secrets sealed in this database/);

      const res = await fetch(`http://127.0.0.1:${env.PORT}/api/getpin`, {
        method: 'POST',
        headers: { ...boss, 'content-type': 'application/json' },
        body: JSON.stringify({ customerNumber: CN, customerName: 'Acme', clsId: CLS }),
      });
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({
        status: 'FAILURE',
        err: messages.sealedKeysUnavailable,
        code: 'UNAVAILABLE',
      });
      const onCall = await waitForLog(proc, (l) => typeof l.fix === 'string' && l.reqId !== undefined);
      expect(onCall.msg).toBe(messages.sealedKeysUnavailable);
      expect(onCall.fix).toBe(atStart.fix);
      expect(proc.output()).not.toContain('042917');
    } finally {
      proc.child.kill('SIGTERM');
      await proc.exited;
    }
  }, 120_000);
});
