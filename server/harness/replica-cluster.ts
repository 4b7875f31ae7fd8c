import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.ts';

/*
 * Issue 25 §2: a real PostgreSQL primary and a streaming standby made from Debian's binaries on free ports
 * (initdb, pg_basebackup -R), for the tests of reads from a replica. PostgreSQL refuses to run as root: as root
 * the servers run as the postgres user.
 */

const run = promisify(execFile);

function binDir(): string {
  const base = '/usr/lib/postgresql';
  const versions = fs.existsSync(base) ? fs.readdirSync(base).filter((v) => /^\d+$/.test(v)) : [];
  if (versions.length === 0)
    throw new Error(`No PostgreSQL server binaries under ${base} (apt-get install postgresql)`);
  return path.join(base, String(Math.max(...versions.map(Number))), 'bin');
}

export interface ReplicaCluster {
  primaryUrl: string;
  replicaUrl: string;
  /** Stops the standby at once (as a crash would); reads must then go to the primary. */
  stopReplica(): Promise<void>;
  /** Holds the standby's replay (it still receives WAL): its data stays as it is until `resumeReplay`. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts a primary and a standby streaming from it; `stop` ends both and removes their folders. */
export async function startReplicaCluster(): Promise<ReplicaCluster> {
  const bin = binDir();
  const root = process.getuid?.() === 0;
  const as = (cmd: string, args: string[]) =>
    root
      ? run('runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args])
      : run(path.join(bin, cmd), args);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-replica-'));
  if (root) fs.chownSync(dir, ...postgresIds());
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const primary = path.join(dir, 'primary');
  const standby = path.join(dir, 'standby');
  const settings = (port: number) =>
    `\nport = ${port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '${dir}'\nfsync = off\n`;
  const started: string[] = [];
  const pgCtl = (folder: string, ...args: string[]) =>
    as('pg_ctl', ['-D', folder, '-l', `${folder}.log`, ...args]);
  const stopServer = async (folder: string) => {
    await pgCtl(folder, '-m', 'immediate', 'stop').catch(() => {});
  };
  try {
    await as('initdb', ['-D', primary, '--auth=trust', '-U', 'postgres', '--no-sync']);
    fs.appendFileSync(path.join(primary, 'postgresql.conf'), settings(primaryPort));
    await pgCtl(primary, '-w', 'start');
    started.push(primary);
    await as('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
      '-D',
      standby,
      '-R',
      '-X',
      'stream',
    ]);
    fs.appendFileSync(path.join(standby, 'postgresql.conf'), settings(replicaPort));
    await pgCtl(standby, '-w', 'start');
    started.push(standby);
  } catch (e) {
    for (const folder of started.reverse()) await stopServer(folder);
    fs.rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const replicaUrl = `postgres://postgres@127.0.0.1:${replicaPort}/postgres`;
  const onReplica = (statement: string) =>
    run('psql', ['-X', '-q', '-d', replicaUrl, '-c', statement]).then(() => undefined);
  return {
    primaryUrl: `postgres://postgres@127.0.0.1:${primaryPort}/postgres`,
    replicaUrl,
    stopReplica: () => stopServer(standby),
    pauseReplay: () => onReplica('select pg_wal_replay_pause()'),
    resumeReplay: () => onReplica('select pg_wal_replay_resume()'),
    async stop() {
      await stopServer(standby);
      await stopServer(primary);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function postgresIds(): [number, number] {
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('No postgres user to run PostgreSQL as (running as root)');
  const [, , uid, gid] = line.split(':');
  return [Number(uid), Number(gid)];
}
