import type { DayRange } from '@lp/domain/dates';
import type { UsageAggregate } from '@lp/domain/statement';
import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { elasticDailyUsage } from '../../db/schema.ts';

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
