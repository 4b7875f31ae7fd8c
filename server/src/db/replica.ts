import { sql } from 'drizzle-orm';
import { type Database, type Db, queryRows } from './database.ts';

/*
 * Issue 25 §2: reads that may be seconds old (usage grids, counts, exports, statements, reports) go to a streaming
 * replica (DATABASE_REPLICA_URL) when it is up, within REPLICA_MAX_LAG_SECONDS, and has replayed the caller's
 * last write; everything else, and every read when it is not, goes to the primary.
 */

/** A WAL position as PostgreSQL writes it ('16/B374D848'), as a number to compare. */
export function parseLsn(text: string): bigint {
  const m = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text);
  if (!m) throw new Error(`not a WAL position: ${text}`);
  return (BigInt(`0x${m[1]}`) << 32n) | BigInt(`0x${m[2]}`);
}

/** The primary's current WAL position, as PostgreSQL writes it ('16/B374D848'). */
export async function walPosition(db: Db): Promise<string> {
  const [{ lsn }] = await queryRows<{ lsn: string }>(db, sql`select pg_current_wal_lsn()::text as lsn`);
  return lsn;
}

/** The primary's WAL position at an instant (ms). */
export interface LsnSample {
  at: number;
  lsn: bigint;
}

/**
 * Seconds the replica is behind at `now`: 0 when it has replayed the newest sampled position of the primary, else
 * the age of the oldest sample it has not reached (samples oldest first). An idle primary writes nothing, so a
 * replica that replayed everything is not "behind" however long ago the last write was.
 */
export function replicaLag(samples: readonly LsnSample[], replayed: bigint, now: number): number {
  const behind = samples.find((s) => s.lsn > replayed);
  return behind ? Math.max(0, (now - behind.at) / 1000) : 0;
}

export interface ReplicaStatus {
  /** ok: reads go there; lagging: behind more than the bound; down: not answering, or not a standby */
  state: 'ok' | 'lagging' | 'down';
  lagSeconds: number | null;
}

const MAX_SAMPLES = 10_000;
/** Writes awaiting replay, for the freshness measurement: beyond this the oldest are no longer followed. */
const MAX_PENDING = 10_000;

/** A write whose visibility on the replica is being followed: its commit's position and when it was received. */
interface PendingWrite {
  lsn: bigint;
  receivedAt: number;
}

/** Routes the reads that may lag, from the last poll of both servers (each node polls on its own). */
export class ReadRouter {
  private samples: LsnSample[] = [];
  private replayed: bigint | null = null;
  private lag: number | null = null;
  private up = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly primary: Database;
  readonly replica: Database;
  private readonly maxLagSeconds: number;
  private readonly pollMs: number;
  private pending: PendingWrite[] = [];
  /** Told each state the router comes to (the node's metrics). */
  onStatus: (status: ReplicaStatus) => void = () => {};
  /**
   * Told, at the first poll that finds it so, that a followed write is visible to the reads that may lag: the
   * seconds since it was received (issue 25 §3; an upper bound, within one poll).
   */
  onVisible: (seconds: number) => void = () => {};

  constructor(primary: Database, replica: Database, maxLagSeconds: number, pollMs = 1000) {
    this.primary = primary;
    this.replica = replica;
    this.maxLagSeconds = maxLagSeconds;
    this.pollMs = pollMs;
  }

  /** Samples the primary's position and the replica's replay; a replica that fails to answer is down. */
  async poll(now = Date.now()): Promise<void> {
    this.samples.push({ at: now, lsn: parseLsn(await walPosition(this.primary.db)) });
    // While the replica is down nothing is replayed: a bounded history (hours at one poll a second) whose oldest
    // sample still makes the lag, when it answers again, far past any bound.
    if (this.samples.length > MAX_SAMPLES) this.samples.shift();
    try {
      const [row] = await queryRows<{ standby: boolean; lsn: string | null }>(
        this.replica.db,
        sql`select pg_is_in_recovery() as standby, pg_last_wal_replay_lsn()::text as lsn`,
      );
      if (!row.standby || !row.lsn) throw new Error('not a standby');
      this.replayed = parseLsn(row.lsn);
      this.lag = replicaLag(this.samples, this.replayed, now);
      this.up = true;
      // Positions replayed are no longer needed to tell the lag.
      const replayed = this.replayed;
      this.samples = this.samples.filter((sample) => sample.lsn > replayed);
    } catch {
      this.up = false;
      this.replayed = null;
      this.lag = null;
    }
    this.onStatus(this.status());
    this.settlePending(now);
  }

  /** Follows a committed write (its position on the primary) until the reads that may lag see it. */
  follow(lsn: string, receivedAt: number): void {
    this.pending.push({ lsn: parseLsn(lsn), receivedAt });
    if (this.pending.length > MAX_PENDING) this.pending.shift();
  }

  /**
   * The followed writes visible now: those the replica has replayed while it is used, or all of them when it is
   * not (reads that may lag then go to the primary, which has them).
   */
  private settlePending(now: number): void {
    const used = this.status().state === 'ok' && this.replayed !== null;
    const replayed = this.replayed ?? 0n;
    const waiting: PendingWrite[] = [];
    for (const write of this.pending) {
      if (used && write.lsn > replayed) waiting.push(write);
      else this.onVisible(Math.max(0, (now - write.receivedAt) / 1000));
    }
    this.pending = waiting;
  }

  status(): ReplicaStatus {
    if (!this.up) return { state: 'down', lagSeconds: null };
    return { state: (this.lag ?? 0) > this.maxLagSeconds ? 'lagging' : 'ok', lagSeconds: this.lag };
  }

  /**
   * Whether a read that may lag goes to the replica now: it is ok and has replayed `lastWrite` (the caller's last
   * write position on the primary, if any); else the read goes to the primary.
   */
  replicaFor(lastWrite?: string): boolean {
    if (this.status().state !== 'ok' || this.replayed === null) return false;
    if (!lastWrite) return true;
    try {
      return parseLsn(lastWrite) <= this.replayed;
    } catch {
      return false;
    }
  }

  /** A read on the replica failed for want of a connection: it is down until the next poll finds it again. */
  markDown(): void {
    this.up = false;
    this.replayed = null;
    this.lag = null;
    this.onStatus(this.status());
  }

  /** Polls every `pollMs` until `stop`; a failed poll of the primary leaves the last state. */
  start(): void {
    const tick = () => {
      this.poll().catch(() => {});
    };
    tick();
    this.timer = setInterval(tick, this.pollMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
