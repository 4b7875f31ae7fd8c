import { and, asc, eq, gt } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { auditChainHeads, auditEntries } from '../../db/schema.ts';
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

/** One page of a chain in sequence order, after `afterSeq`. */
export const chainPage = (db: Db, chain: string, afterSeq: number, limit: number) =>
  db
    .select()
    .from(auditEntries)
    .where(and(eq(auditEntries.chain, chain), gt(auditEntries.seq, afterSeq)))
    .orderBy(asc(auditEntries.seq))
    .limit(limit);
