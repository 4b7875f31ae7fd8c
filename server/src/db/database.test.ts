import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirLockedError, migrateDatabase, openPglite, queryRows } from './database.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-lock-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('embedded database folder', () => {
  it('refuses a second opener of the same folder, keeps data across reopen', async () => {
    const folder = path.join(dir, 'pglite');
    const first = await openPglite(folder);
    await migrateDatabase(first);
    await first.db.execute(sql`insert into accounts (customer_number, name) values ('1', 'Kept')`);
    await expect(openPglite(folder)).rejects.toThrowError(DataDirLockedError);
    await expect(openPglite(folder)).rejects.toThrowError(/in use by another process/);
    await first.close();

    const again = await openPglite(folder);
    await migrateDatabase(again);
    const rows = await queryRows<{ name: string }>(again.db, sql`select name from accounts`);
    expect(rows).toEqual([{ name: 'Kept' }]);
    await again.close();
  }, 60_000);
});
