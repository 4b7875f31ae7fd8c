import { and, asc, desc, eq, gt, inArray, isNotNull, lte, max, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/database.ts';
import { auditChainHeads, auditCheckpoints, auditEntries } from '../../db/schema.ts';
import { type ChainedFields, entryHash, GENESIS_HASH } from './chain.ts';

export type AuditRow = typeof auditEntries.$inferSelect;

/** An entry as appended: its chained fields and the hashes that link it (the row's id is not read back). */
export type AppendedEntry = ChainedFields & { prevHash: string; hash: string };

/** Rows per insert statement: bounds one statement's size (its parameters are one array per column). */
const INSERT_ROWS = 1_000;

/** Chain keys in the order every writer locks them: byte order, the same in JS and under `collate "C"`. */
const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Appends entries to their chains inside the caller's transaction, in four statements however many entries and
 * chains (decision 062): the missing heads are created, every chain's head row is locked in one fixed order (chain
 * key, byte order), the entries go in with one multi-row insert, and each head moves once to its chain's last entry.
 * Parallel appends to one chain take turns on its head, so the sequence has no gaps; within the batch each entry's
 * hash chains to the one before it, as if appended one by one.
 */
export async function appendEntries(
  tx: Db,
  entries: readonly Omit<ChainedFields, 'seq'>[],
): Promise<AppendedEntry[]> {
  if (entries.length === 0) return [];
  const chains = [...new Set(entries.map((e) => e.chain))].sort(byteOrder);
  await tx
    .insert(auditChainHeads)
    .values(chains.map((chain) => ({ chain, seq: 0, hash: GENESIS_HASH })))
    .onConflictDoNothing();
  const heads = await tx
    .select()
    .from(auditChainHeads)
    .where(inArray(auditChainHeads.chain, chains))
    .orderBy(sql`${auditChainHeads.chain} collate "C"`)
    .for('update');
  const last = new Map(heads.map((h) => [h.chain, { seq: h.seq, hash: h.hash }]));
  // Chain by chain in the lock order, each chain's entries in the caller's order.
  const appended = [...entries]
    .sort((x, y) => byteOrder(x.chain, y.chain))
    .map((fields) => {
      const head = last.get(fields.chain);
      if (!head) throw new Error(`audit chain ${fields.chain} has no head`);
      const entry = { ...fields, seq: head.seq + 1 };
      const hash = entryHash(head.hash, entry);
      last.set(fields.chain, { seq: entry.seq, hash });
      return { ...entry, prevHash: head.hash, hash };
    });
  for (let i = 0; i < appended.length; i += INSERT_ROWS)
    await insertEntries(tx, appended.slice(i, i + INSERT_ROWS));
  const moved = chains.map((chain) => {
    const head = last.get(chain)!;
    return sql`(${chain}::text, ${head.seq}::bigint, ${head.hash}::text)`;
  });
  await tx.execute(
    sql`update audit_chain_heads h set seq = v.seq, hash = v.hash
        from (values ${sql.join(moved, sql`, `)}) as v(chain, seq, hash) where h.chain = v.chain`,
  );
  return appended;
}

/**
 * One insert of the entries, a column a parameter (`unnest` of one array per column): the statement and its
 * parameters stay the same size however many rows, where a multi-row VALUES has 18 parameters a row for the driver
 * to build and the database to parse (decision 062, addendum of issue 23).
 */
async function insertEntries(tx: Db, rows: readonly AppendedEntry[]) {
  const column = <T>(value: (e: AppendedEntry) => T) => sql.param(rows.map(value));
  const json = (v: Record<string, unknown> | null) => (v === null ? null : JSON.stringify(v));
  await tx.execute(sql`insert into audit_entries (chain, seq, at, customer_number, actor_kind, actor_id, actor_name,
      action, object_type, object_id, before, after, request_id, client_request_id, client_ip, prev_hash, hash)
    select * from unnest(${column((e) => e.chain)}::text[], ${column((e) => e.seq)}::bigint[],
      ${column((e) => e.at.toISOString())}::timestamptz[], ${column((e) => e.customerNumber)}::text[],
      ${column((e) => e.actorKind)}::text[], ${column((e) => e.actorId)}::text[], ${column((e) => e.actorName)}::text[],
      ${column((e) => e.action)}::text[], ${column((e) => e.objectType)}::text[], ${column((e) => e.objectId)}::text[],
      ${column((e) => json(e.before))}::jsonb[], ${column((e) => json(e.after))}::jsonb[],
      ${column((e) => e.requestId)}::text[], ${column((e) => e.clientRequestId)}::text[],
      ${column((e) => e.clientIp)}::text[], ${column((e) => e.prevHash)}::text[], ${column((e) => e.hash)}::text[])`);
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
