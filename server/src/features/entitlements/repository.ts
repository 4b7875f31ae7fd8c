import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { entitlements, products } from '../../db/schema.ts';

/** The account's elastic entitlements with their product name; used_cents is what the ledger has drawn. */
export async function listElasticEntitlements(db: Db, customerNumber: string) {
  return db
    .select({
      activationId: entitlements.activationId,
      licenseModel: entitlements.licenseModel,
      state: entitlements.state,
      startDate: entitlements.startDate,
      endDate: entitlements.endDate,
      currency: entitlements.currency,
      quantity: entitlements.quantity,
      usedCents: entitlements.usedCents,
      poNumber: entitlements.poNumber,
      rateTableVersion: entitlements.rateTableVersion,
      productName: entitlements.productName,
      catalogueName: products.name,
      partNumber: entitlements.partNumber,
    })
    .from(entitlements)
    .leftJoin(products, eq(products.partNumber, entitlements.partNumber))
    .where(and(eq(entitlements.customerNumber, customerNumber), eq(entitlements.kind, 'ELASTIC')))
    .orderBy(asc(entitlements.id));
}
