import { licenseModelGroups } from '@lp/domain/entitlements';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { entitlements, products, webPoolPolicies } from '../../db/schema.ts';

/** The license models whose lines may make a web seat pool (decision 071); poolKindOf decides per line. */
const webModels = [...licenseModelGroups['Named User'], ...licenseModelGroups['Shared Web']];

/**
 * The account's SSL lines of the web license models with their product, in any state and term: which of them
 * count today is poolCapacity's rule (domain/src/web-seats.ts), not this query's.
 */
export async function webLinesOf(db: Db, customerNumber: string, partNumber?: string) {
  return db
    .select({
      partNumber: entitlements.partNumber,
      productName: products.name,
      licenseModel: entitlements.licenseModel,
      quantity: entitlements.quantity,
      startDate: entitlements.startDate,
      endDate: entitlements.endDate,
      state: entitlements.state,
    })
    .from(entitlements)
    .innerJoin(products, eq(products.partNumber, entitlements.partNumber))
    .where(
      and(
        eq(entitlements.customerNumber, customerNumber),
        eq(entitlements.kind, 'SSL'),
        inArray(entitlements.licenseModel, webModels),
        isNotNull(entitlements.partNumber),
        partNumber === undefined ? undefined : eq(entitlements.partNumber, partNumber),
      ),
    )
    .orderBy(entitlements.partNumber, entitlements.id);
}

const policyColumns = {
  partNumber: webPoolPolicies.partNumber,
  heartbeatWindowSeconds: webPoolPolicies.heartbeatWindowSeconds,
  idleTimeoutSeconds: webPoolPolicies.idleTimeoutSeconds,
  sessionsPerUser: webPoolPolicies.sessionsPerUser,
};

/** The saved policies of the account's pools (pools without one have the defaults). */
export async function policiesOf(db: Db, customerNumber: string) {
  return db
    .select(policyColumns)
    .from(webPoolPolicies)
    .where(eq(webPoolPolicies.customerNumber, customerNumber));
}

/** One pool's saved policy, locked for the transaction that replaces it; undefined when none was saved. */
export async function lockPolicy(db: Db, customerNumber: string, partNumber: string) {
  const [row] = await db
    .select(policyColumns)
    .from(webPoolPolicies)
    .where(
      and(eq(webPoolPolicies.customerNumber, customerNumber), eq(webPoolPolicies.partNumber, partNumber)),
    )
    .for('update');
  return row;
}

export async function upsertPolicy(
  db: Db,
  customerNumber: string,
  partNumber: string,
  policy: { heartbeatWindowSeconds: number; idleTimeoutSeconds: number; sessionsPerUser: number },
  at: Date,
) {
  await db
    .insert(webPoolPolicies)
    .values({ customerNumber, partNumber, ...policy, updatedAt: at })
    .onConflictDoUpdate({
      target: [webPoolPolicies.customerNumber, webPoolPolicies.partNumber],
      set: { ...policy, updatedAt: at },
    });
}
