import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { z } from 'zod';

/** Who holds the lock: written into the lock directory in the same step that creates it. */
const ownerSchema = z.object({
  pid: z.number().int().positive(),
  hostname: z.string(),
  startTime: z.string().nullable(),
});
type LockOwner = z.infer<typeof ownerSchema>;

const ownerFile = 'owner.json';

/**
 * Locks an embedded-database folder for this process (lock directory `${dir}.lock`); answers the release
 * function, or undefined when a live process holds the folder.
 *
 * proper-lockfile alone only knows a lock is abandoned once its mtime is 15 s old, so a server restarted
 * after a crash (kill -9, power loss) was refused for 15 s. The lock directory now also records the
 * holder's pid, host and process start time, and a lock whose holder is gone is taken over at once. The
 * mtime rule stays for what the record cannot tell: a holder on another host (shared folder), or a lock
 * directory caught in the instant before its record is written.
 */
export async function lockDataDir(dir: string): Promise<(() => Promise<void>) | undefined> {
  const lockDir = `${dir}.lock`;
  const options = { lockfilePath: lockDir, stale: 15_000, update: 5_000, fs: ownerRecordingFs(lockDir) };
  for (let attempt = 0; ; attempt++) {
    try {
      return await lockfile.lock(dir, options);
    } catch (e) {
      if ((e as { code?: string }).code !== 'ELOCKED') throw e;
      if (attempt > 0 || !takeOverDeadLock(lockDir)) return undefined;
    }
  }
}

/**
 * proper-lockfile takes a `fs` to work with: this one writes the owner record as the lock directory is
 * created (before proper-lockfile notes the directory's mtime, which it later checks as its own) and
 * removes the directory with its record on release and at exit.
 */
function ownerRecordingFs(lockDir: string) {
  const owner: LockOwner = {
    pid: process.pid,
    hostname: os.hostname(),
    startTime: processStartTime(process.pid),
  };
  const removeLockDir = (callback: (err: NodeJS.ErrnoException | null) => void) =>
    fs.rm(lockDir, { recursive: true }, callback);
  return {
    ...fs,
    mkdir(target: string, callback: (err: NodeJS.ErrnoException | null) => void) {
      fs.mkdir(target, (err) => {
        if (err || target !== lockDir) return callback(err);
        fs.writeFile(path.join(lockDir, ownerFile), JSON.stringify(owner), (writeErr) =>
          writeErr ? removeLockDir(() => callback(writeErr)) : callback(null),
        );
      });
    },
    rmdir(target: string, callback: (err: NodeJS.ErrnoException | null) => void) {
      if (target !== lockDir) return fs.rmdir(target, callback);
      removeLockDir(callback);
    },
    rmdirSync(target: string) {
      fs.rmSync(target, { recursive: target === lockDir });
    },
  };
}

/**
 * Removes the lock directory when the holder it records is gone; true when it did (or another process
 * removed it first). Moved aside before deleting: a rename is atomic, so when two processes take over the
 * same dead lock, the second cannot delete the lock the first has just created — it sees a different
 * record in what it moved and puts it back.
 */
function takeOverDeadLock(lockDir: string): boolean {
  const owner = readOwner(lockDir);
  if (!owner || !isGone(owner)) return false;
  const aside = `${lockDir}.stale-${randomUUID()}`;
  try {
    fs.renameSync(lockDir, aside);
  } catch {
    return true;
  }
  if (JSON.stringify(readOwner(aside)) !== JSON.stringify(owner)) {
    fs.renameSync(aside, lockDir);
    return false;
  }
  fs.rmSync(aside, { recursive: true, force: true });
  return true;
}

function readOwner(lockDir: string): LockOwner | undefined {
  try {
    return ownerSchema.parse(JSON.parse(fs.readFileSync(path.join(lockDir, ownerFile), 'utf8')));
  } catch {
    return undefined;
  }
}

/** True when the recorded holder has certainly ended: no such process, or its pid now names a later process. */
function isGone(owner: LockOwner): boolean {
  // A pid means nothing on another host.
  if (owner.hostname !== os.hostname()) return false;
  try {
    process.kill(owner.pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ESRCH') return true;
    // EPERM: the process exists (another user's).
  }
  const startTime = processStartTime(owner.pid);
  return owner.startTime !== null && startTime !== null && startTime !== owner.startTime;
}

/** The process's start time in clock ticks since boot (Linux /proc); null where there is no /proc. */
function processStartTime(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22 is starttime; the fields after the parenthesised command name begin with field 3.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}
