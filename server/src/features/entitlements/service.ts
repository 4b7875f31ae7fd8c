import type { ElasticEntitlementRecord } from '@lp/contract/entitlements/schemas';
import type { AppContext } from '../../platform/context.ts';
import type { Principal } from '../../platform/principal.ts';
import { authorizeAccount } from '../accounts/policy.ts';
import { listElasticEntitlements } from './repository.ts';

/**
 * Spec 001 §3: the account's elastic entitlement records. Every record of kind ELASTIC is returned
 * whatever its model and state; which of them count is the classification's business (@lp/domain).
 */
export async function getEntitlements(
  ctx: AppContext,
  principal: Principal,
  customerNumber: string,
): Promise<ElasticEntitlementRecord[]> {
  await authorizeAccount(ctx, principal, customerNumber, 'read');
  const rows = await listElasticEntitlements(ctx.db, customerNumber);
  return rows.map((r) => ({
    ActivationId: r.activationId,
    LicenseModel: r.licenseModel,
    EntitlementState: r.state,
    StartDate: r.startDate,
    EndDate: r.endDate,
    Currency: r.currency ?? '',
    // The ledger keeps hundredths of a unit so that its sums are exact.
    Used: r.usedCents / 100,
    LineItemQuantity: r.quantity,
    PONumber: r.poNumber ?? '',
    CustomAttributes: {
      Product: r.productName ?? r.catalogueName ?? r.partNumber ?? '',
      // One order line of elastic units: its count is the number of units bought.
      Count: r.quantity,
      RateTableVersion: r.rateTableVersion ?? '',
    },
  }));
}
