import { and, asc, desc, eq, gt, isNotNull, lte, max, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/database.ts';
import { auditChainHeads, auditCheckpoints, auditEntries } from '../../db/schema.ts';
import { type ChainedFields, entryHash, GENESIS_HASH } from './chain.ts';

export type AuditRow = typeof auditEntries.$inferSelect;

/**
 * Appends one entry to its chain inside the caller's transaction: the chain's head row is locked (created on the
 * first entry), so parallel appends to one chain take turns and the sequence has no gaps.
 */
export async function appendEntry(tx: Db, fields: Omit<ChainedFields, 'seq'>): Promise<AuditRow> {
  await tx
    .insert(auditChainHeads)
    .values({ chain: fields.chain, seq: 0, hash: GENESIS_HASH })
    .onConflictDoNothing();
  const [head] = await tx
    .select()
    .from(auditChainHeads)
    .where(eq(auditChainHeads.chain, fields.chain))
    .for('update');
  if (!head) throw new Error(`audit chain ${fields.chain} has no head`);
  const entry = { ...fields, seq: head.seq + 1 };
  const hash = entryHash(head.hash, entry);
  const [row] = await tx
    .insert(auditEntries)
    .values({ ...entry, prevHash: head.hash, hash })
    .returning();
  await tx
    .update(auditChainHeads)
    .set({ seq: entry.seq, hash })
    .where(eq(auditChainHeads.chain, fields.chain));
  return row as AuditRow;
}

export const listHeads = (db: Db, chain?: string) =>
  db
    .select()
    .from(auditChainHeads)
    .where(chain === undefined ? undefined : eq(auditChainHeads.chain, chain))
    .orderBy(asc(auditChainHeads.chain));

/** One page of a chain in sequence order, after `afterSeq` and up to `upToSeq`. */
export const chainPage = (db: Db, chain: string, afterSeq: number, limit: number, upToSeq?: number) =>
  db
    .select()
    .from(auditEntries)
    .where(
      and(
        eq(auditEntries.chain, chain),
        gt(auditEntries.seq, afterSeq),
        upToSeq === undefined ? undefined : lte(auditEntries.seq, upToSeq),
      ),
    )
    .orderBy(asc(auditEntries.seq))
    .limit(limit);

/** The last seq of a chain's entries up to `upToSeq`; 0 when there are none. */
export async function lastSeq(db: Db, chain: string, upToSeq?: number): Promise<number> {
  const [row] = await db
    .select({ seq: max(auditEntries.seq) })
    .from(auditEntries)
    .where(
      and(eq(auditEntries.chain, chain), upToSeq === undefined ? undefined : lte(auditEntries.seq, upToSeq)),
    );
  return Number(row?.seq ?? 0);
}

/**
 * The chains that have entries, whatever their heads say (a deleted head must not hide its chain): one index
 * probe per chain on audit_entries_chain_seq, not a scan of the log.
 */
export async function entryChains(db: Db, chain?: string): Promise<string[]> {
  if (chain !== undefined) {
    const rows = await db
      .select({ chain: auditEntries.chain })
      .from(auditEntries)
      .where(eq(auditEntries.chain, chain))
      .limit(1);
    return rows.map((r) => r.chain);
  }
  return (
    await queryRows<{ chain: string }>(
      db,
      sql`with recursive c(chain) as (
        (select chain from audit_entries order by chain limit 1)
        union all
        select (select e.chain from audit_entries e where e.chain > c.chain order by e.chain limit 1)
        from c where c.chain is not null
      ) select chain from c where chain is not null`,
    )
  ).map((r) => r.chain);
}

export type CheckpointRunRow = typeof auditCheckpoints.$inferSelect;

export const insertCheckpointRun = (db: Db, run: typeof auditCheckpoints.$inferInsert) =>
  db.insert(auditCheckpoints).values(run);

export async function checkpointRunOfPeriod(db: Db, period: string) {
  const [row] = await db
    .select({ id: auditCheckpoints.id })
    .from(auditCheckpoints)
    .where(eq(auditCheckpoints.period, period))
    .limit(1);
  return row;
}

/** The last run, and the last run that wrote a file. */
export async function lastCheckpointRuns(db: Db) {
  const newest = (withFile: boolean) =>
    db
      .select()
      .from(auditCheckpoints)
      .where(withFile ? isNotNull(auditCheckpoints.file) : undefined)
      .orderBy(desc(auditCheckpoints.at), desc(auditCheckpoints.id))
      .limit(1);
  const [[checked], [written]] = await Promise.all([newest(false), newest(true)]);
  return { checked, written };
}
