import { fork } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataDirLockedError, openPglite, queryRows } from './database.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-lock-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// One initdb for the file (seconds of CPU in WASM): each new folder starts from its dump, as the API tests' do.
let fresh: Blob;
beforeAll(async () => {
  const seed = await openPglite(undefined);
  fresh = await (seed as unknown as { pglite: { dumpDataDir(c: 'gzip'): Promise<Blob> } }).pglite.dumpDataDir(
    'gzip',
  );
  await seed.close();
}, 300_000);

describe('embedded database folder', () => {
  it('refuses a second opener of the same folder, keeps data across reopen', async () => {
    const folder = path.join(dir, 'pglite');
    const first = await openPglite(folder, { loadDataDir: fresh });
    // The lock and the folder's persistence need no schema: a table of its own instead of the migrations, which
    // cost about 8 s of CPU per folder (migrating is migrate.api.test.ts's subject).
    await first.db.execute(sql`create table kept (name text)`);
    await first.db.execute(sql`insert into kept values ('Kept')`);
    await expect(openPglite(folder)).rejects.toThrowError(DataDirLockedError);
    await expect(openPglite(folder)).rejects.toThrowError(/in use by another process/);
    await first.close();

    const again = await openPglite(folder);
    const rows = await queryRows<{ name: string }>(again.db, sql`select name from kept`);
    expect(rows).toEqual([{ name: 'Kept' }]);
    await again.close();
  }, 300_000);

  it('takes over at once the lock of a process killed with SIGKILL, and still refuses a live holder', async () => {
    const folder = path.join(dir, 'crashed');
    const script = path.join(dir, 'hold-lock.mjs');
    const moduleUrl = (file: string) => new URL(file, import.meta.url).href;
    fs.writeFileSync(
      script,
      `const { openPglite } = await import(${JSON.stringify(moduleUrl('./database.ts'))});
       const database = await openPglite(${JSON.stringify(folder)});
       await database.db.$client.exec("create table kept (name text); insert into kept values ('Before the crash')");
       process.send('holding');`,
    );
    await (await openPglite(folder, { loadDataDir: fresh })).close();
    const child = fork(script, { execArgv: [] });
    const exited = once(child, 'exit');
    const [message] = await Promise.race([once(child, 'message'), exited]);
    expect(message).toBe('holding');

    await expect(openPglite(folder)).rejects.toThrowError(DataDirLockedError);

    child.kill('SIGKILL');
    await exited;
    // The lock directory is still there (nothing ran at exit), yet the folder opens at once.
    expect(fs.existsSync(`${folder}.lock`)).toBe(true);
    const again = await openPglite(folder);
    const rows = await queryRows<{ name: string }>(again.db, sql`select name from kept`);
    expect(rows).toEqual([{ name: 'Before the crash' }]);
    await expect(openPglite(folder)).rejects.toThrowError(/in use by another process/);
    await again.close();
    expect(fs.existsSync(`${folder}.lock`)).toBe(false);
  }, 300_000);

  it('takes over a lock whose pid now names another process, not one held on another host', async () => {
    const lockDir = (name: string, owner: object) => {
      const folder = path.join(dir, name);
      fs.mkdirSync(`${folder}.lock`, { recursive: true });
      fs.writeFileSync(path.join(`${folder}.lock`, 'owner.json'), JSON.stringify(owner));
      return folder;
    };
    // A live pid (this process) with another start time: the holder died and its pid was reused.
    const reused = lockDir('reused', { pid: process.pid, hostname: os.hostname(), startTime: '1' });
    const taken = await openPglite(reused, { loadDataDir: fresh });
    await taken.close();
    // Another machine's holder cannot be checked: its lock is honoured until its mtime grows stale.
    const remote = lockDir('remote', { pid: process.pid, hostname: 'another-host', startTime: '1' });
    await expect(openPglite(remote)).rejects.toThrowError(DataDirLockedError);
  }, 300_000);
});
