import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { fsaPrices, products } from '../../db/schema.ts';

/** The price table of a contract: its orderable products with their catalogue names, by name. */
export async function listPrices(db: Db, contractId: number) {
  return db
    .select({
      partNumber: fsaPrices.partNumber,
      name: products.name,
      price7Days: fsaPrices.price7DaysCents,
      price30Days: fsaPrices.price30DaysCents,
      price60Days: fsaPrices.price60DaysCents,
      price90Days: fsaPrices.price90DaysCents,
      price180Days: fsaPrices.price180DaysCents,
      price1Year: fsaPrices.price1YearCents,
    })
    .from(fsaPrices)
    .innerJoin(products, eq(products.partNumber, fsaPrices.partNumber))
    .where(eq(fsaPrices.contractId, contractId))
    .orderBy(asc(products.name), asc(fsaPrices.partNumber));
}
export type PriceRow = Awaited<ReturnType<typeof listPrices>>[number];

/** Which of the contracts have at least one orderable product. */
export async function contractsWithPrices(db: Db, contractIds: number[]): Promise<Set<number>> {
  if (contractIds.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ contractId: fsaPrices.contractId })
    .from(fsaPrices)
    .where(inArray(fsaPrices.contractId, contractIds));
  return new Set(rows.map((r) => r.contractId));
}
