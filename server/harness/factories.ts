import { randomInt } from 'node:crypto';
import type { Db } from '../src/db/database.ts';
import {
  accounts,
  entitlements,
  licenseServerAccounts,
  licenseServers,
  portalContacts,
  products,
} from '../src/db/schema.ts';

type AccountInsert = typeof accounts.$inferInsert;
type EntitlementInsert = typeof entitlements.$inferInsert;

export async function buildAccount(db: Db, over: Partial<AccountInsert> = {}) {
  const [row] = await db
    .insert(accounts)
    .values({
      customerNumber: String(randomInt(1_000_000, 9_999_999)),
      name: 'Test Account',
      orgType: 'Direct',
      ...over,
    })
    .returning();
  return row;
}

/** A product (part number): vendor daemon `daemon` (simlmd unless given) licenses it as `featureName`. */
export async function buildProduct(
  db: Db,
  partNumber: string,
  product: { name: string; featureName: string; family?: string; daemon?: string },
) {
  await db.insert(products).values({ partNumber, family: 'Platform', daemon: 'simlmd', ...product });
}

export async function addContact(db: Db, customerNumber: string, email: string, role: string) {
  await db.insert(portalContacts).values({ customerNumber, email, role });
}

export async function buildEntitlement(
  db: Db,
  customerNumber: string,
  over: Partial<EntitlementInsert> = {},
) {
  const [row] = await db
    .insert(entitlements)
    .values({
      customerNumber,
      activationId: `ACT-${randomInt(1e9)}`,
      kind: 'SSL',
      licenseModel: 'Lease',
      quantity: 1,
      startDate: '2026-01-01',
      endDate: '2027-01-01',
      ...over,
    })
    .returning();
  return row;
}

/** A day `offset` days from today, 'YYYY-MM-DD' (UTC), for entitlements that must be live whenever tests run. */
export const dayFromToday = (offset: number) =>
  new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** A deployed Network lease of 10 seats that started 100 days ago and ends in 200 (spec 002 leases). */
export function buildLease(
  db: Db,
  customerNumber: string,
  activationId: string,
  over: Partial<EntitlementInsert> = {},
) {
  return buildEntitlement(db, customerNumber, {
    activationId,
    kind: 'SSL',
    state: 'Deployed',
    licenseModel: 'Network',
    quantity: 10,
    startDate: dayFromToday(-100),
    endDate: dayFromToday(200),
    ...over,
  });
}

type ServerInsert = typeof licenseServers.$inferInsert;

/**
 * A license server serving `customerNumber` (elastic: `hostIdentity` is its CLS id; flexlm: give the identity
 * the host-ids module builds). Answers the row.
 */
export async function buildLicenseServer(
  db: Db,
  customerNumber: string,
  over: Partial<ServerInsert> & Pick<ServerInsert, 'hostIdentity' | 'kind'>,
) {
  const [row] = await db
    .insert(licenseServers)
    .values({
      name: over.hostIdentity,
      serverNames: over.name ?? over.hostIdentity,
      hostIds: over.hostIdentity,
      hostIdTypes: 'ETHERNET',
      state: 'Active',
      ...over,
    })
    .returning();
  await db.insert(licenseServerAccounts).values({ serverId: row.id, customerNumber });
  return row;
}
