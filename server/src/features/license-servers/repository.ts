import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { accounts, licenseServerAccounts, licenseServers } from '../../db/schema.ts';

export type HostRow = typeof licenseServers.$inferSelect;

/** The account's running elastic license servers, oldest first. */
export async function listElasticServers(db: Db, customerNumber: string) {
  return db
    .select({ hostIdentity: licenseServers.hostIdentity, alias: licenseServers.alias })
    .from(licenseServers)
    .innerJoin(licenseServerAccounts, eq(licenseServerAccounts.serverId, licenseServers.id))
    .where(
      and(
        eq(licenseServerAccounts.customerNumber, customerNumber),
        eq(licenseServers.kind, 'elastic'),
        eq(licenseServers.state, 'Active'),
      ),
    )
    .orderBy(asc(licenseServers.id));
}

/** The FlexLM hosts serving the account, each with the number of accounts it serves. */
export async function listHostsOfAccount(db: Db, customerNumber: string) {
  return db
    .select({
      host: licenseServers,
      accountCount: sql<number>`(select count(*)::int from license_server_accounts a where a.server_id = ${licenseServers.id})`,
    })
    .from(licenseServers)
    .innerJoin(licenseServerAccounts, eq(licenseServerAccounts.serverId, licenseServers.id))
    .where(and(eq(licenseServerAccounts.customerNumber, customerNumber), eq(licenseServers.kind, 'flexlm')));
}

/** A FlexLM host by its identity; `forUpdate` locks the row for the rest of the transaction. */
export async function findHostByIdentity(db: Db, hostIdentity: string, forUpdate = false) {
  const query = db
    .select()
    .from(licenseServers)
    .where(and(eq(licenseServers.hostIdentity, hostIdentity), eq(licenseServers.kind, 'flexlm')));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

/**
 * A FlexLM host in use (not Inactive) that has any of these ids as one of its own (a triad's member, or a single
 * host a triad would take in): one id serves one license server at a time. `exceptHost` is left out (a rehost
 * source about to be returned).
 */
export async function findHostInUseWithAnyId(db: Db, ids: string[], exceptHost?: number) {
  if (ids.length === 0) return undefined;
  const [row] = await db
    .select()
    .from(licenseServers)
    .where(
      and(
        eq(licenseServers.kind, 'flexlm'),
        ne(licenseServers.state, 'Inactive'),
        exceptHost === undefined ? undefined : ne(licenseServers.id, exceptHost),
        sql`string_to_array(${licenseServers.hostIds}, ',') && ARRAY[${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )}]::text[]`,
      ),
    )
    .limit(1);
  return row;
}

/** Locks hosts by id, in id order (every write locks its hosts first, in one order: no deadlock between them). */
export async function lockHostsById(db: Db, ids: number[]): Promise<HostRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(licenseServers)
    .where(inArray(licenseServers.id, ids))
    .orderBy(asc(licenseServers.id))
    .for('update');
}

/** The accounts a host serves, with their names and whether they are in its shared-server group. */
export async function listHostAccounts(db: Db, serverId: number) {
  return db
    .select({
      customerNumber: licenseServerAccounts.customerNumber,
      customerName: accounts.name,
      inSharedGroup: licenseServerAccounts.inSharedGroup,
    })
    .from(licenseServerAccounts)
    .innerJoin(accounts, eq(accounts.customerNumber, licenseServerAccounts.customerNumber))
    .where(eq(licenseServerAccounts.serverId, serverId))
    .orderBy(asc(licenseServerAccounts.customerNumber));
}

/** Adds a FlexLM host unless one with this identity exists; answers the new row or undefined. */
export async function insertHost(db: Db, host: typeof licenseServers.$inferInsert) {
  const [row] = await db.insert(licenseServers).values(host).onConflictDoNothing().returning();
  return row;
}

export async function addHostAccount(db: Db, serverId: number, customerNumber: string) {
  await db.insert(licenseServerAccounts).values({ serverId, customerNumber }).onConflictDoNothing();
}

export async function updateHost(
  db: Db,
  serverId: number,
  change: Partial<Pick<HostRow, 'state' | 'borrowable' | 'port' | 'name' | 'serverNames'>>,
) {
  if (Object.keys(change).length === 0) return;
  await db.update(licenseServers).set(change).where(eq(licenseServers.id, serverId));
}

/** Sets the shared-group flag of the given member accounts. */
export async function setSharedGroupFlags(
  db: Db,
  serverId: number,
  customerNumbers: string[],
  inGroup: boolean,
) {
  if (customerNumbers.length === 0) return;
  await db
    .update(licenseServerAccounts)
    .set({ inSharedGroup: inGroup })
    .where(
      and(
        eq(licenseServerAccounts.serverId, serverId),
        inArray(licenseServerAccounts.customerNumber, customerNumbers),
      ),
    );
}

/** Removes the account from the host; deletes the host (and its history) once no account is left. */
export async function removeHostAccount(db: Db, serverId: number, customerNumber: string) {
  await db
    .delete(licenseServerAccounts)
    .where(
      and(
        eq(licenseServerAccounts.serverId, serverId),
        eq(licenseServerAccounts.customerNumber, customerNumber),
      ),
    );
  await db.execute(
    sql`delete from license_servers s where s.id = ${serverId}
      and not exists (select 1 from license_server_accounts a where a.server_id = s.id)`,
  );
}
