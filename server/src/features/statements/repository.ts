import type { DayRange } from '@lp/domain/dates';
import type { StatementEntitlement, UsageAggregate } from '@lp/domain/statement';
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { elasticDailyUsage, entitlements } from '../../db/schema.ts';

/** Only these entitlements count as elastic (spec 001 §4 classification). */
const isElastic = (customerNumber: string) =>
  and(
    eq(entitlements.customerNumber, customerNumber),
    eq(entitlements.kind, 'ELASTIC'),
    eq(entitlements.licenseModel, 'Elastic-AEU'),
    eq(entitlements.state, 'Deployed'),
  );

const entitlementColumns = {
  id: entitlements.id,
  activationId: entitlements.activationId,
  poNumber: entitlements.poNumber,
  startDate: entitlements.startDate,
  endDate: entitlements.endDate,
  quantity: entitlements.quantity,
  currency: entitlements.currency,
};

export async function listElasticEntitlements(
  db: Db,
  customerNumber: string,
): Promise<StatementEntitlement[]> {
  return db
    .select(entitlementColumns)
    .from(entitlements)
    .where(isElastic(customerNumber))
    .orderBy(asc(entitlements.startDate), asc(entitlements.id));
}

export async function findElasticEntitlement(
  db: Db,
  customerNumber: string,
  activationId: string,
): Promise<StatementEntitlement | undefined> {
  const [row] = await db
    .select(entitlementColumns)
    .from(entitlements)
    .where(and(isElastic(customerNumber), eq(entitlements.activationId, activationId)));
  return row;
}

/**
 * Usage per (entitlement, product) before the period and within it, read from the daily rollups only (a
 * year of one account is at most days × entitlements × products rows, whatever the number of sessions).
 * Days are 'YYYY-MM-DD' text, so text comparison is date order.
 */
export async function usageAggregates(
  db: Db,
  customerNumber: string,
  period: DayRange,
  entitlementIds?: readonly number[],
): Promise<UsageAggregate[]> {
  const u = elasticDailyUsage;
  const rows = await db
    .select({
      entitlementId: u.entitlementId,
      product: u.product,
      beforeCents:
        sql<number>`coalesce(sum(${u.amountCents}) filter (where ${u.day} < ${period.from}), 0)`.mapWith(
          Number,
        ),
      withinCents:
        sql<number>`coalesce(sum(${u.amountCents}) filter (where ${u.day} >= ${period.from}), 0)`.mapWith(
          Number,
        ),
    })
    .from(u)
    .where(
      and(
        eq(u.customerNumber, customerNumber),
        lte(u.day, period.to),
        entitlementIds ? inArray(u.entitlementId, [...entitlementIds]) : undefined,
      ),
    )
    .groupBy(u.entitlementId, u.product);
  return rows;
}
