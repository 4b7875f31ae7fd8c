import { z } from 'zod';
import { dayText } from '../common/dates.ts';
import { successOf } from '../common/envelope.ts';
import { customerNumberField } from '../common/fields.ts';

/**
 * POST /api/getEntitlements (spec 001 §7). The spec spells the name key `customername`; it is accepted and
 * not needed (the server reads the name from the account).
 */
export const getEntitlementsRequestSchema = z.strictObject({
  customerNumber: customerNumberField,
  customername: z.string().max(500).optional(),
});
export type GetEntitlementsRequest = z.infer<typeof getEntitlementsRequestSchema>;

/** Spec 001 §3: the entitlement record's custom attributes (product, count, rate-table version). */
export const entitlementCustomAttributesSchema = z.object({
  /** Product name of the entitlement's part. */
  Product: z.string(),
  /** Count of the product on the order line. */
  Count: z.number(),
  /** e.g. '2024.1.0'; the page shows the part before the first dot. */
  RateTableVersion: z.string(),
});

/** Spec 001 §3: one elastic entitlement record; Used is what the ledger has drawn from it, in units. */
export const elasticEntitlementRecordSchema = z.object({
  ActivationId: z.string(),
  LicenseModel: z.string(),
  EntitlementState: z.string(),
  /** 'YYYY-MM-DD' */
  StartDate: dayText,
  /** 'YYYY-MM-DD'; null for an entitlement without an end (never for Elastic-AEU). */
  EndDate: dayText.nullable(),
  Currency: z.string(),
  Used: z.number(),
  LineItemQuantity: z.number(),
  PONumber: z.string(),
  CustomAttributes: entitlementCustomAttributesSchema,
});
export type ElasticEntitlementRecord = z.infer<typeof elasticEntitlementRecordSchema>;

export const getEntitlementsResponseSchema = successOf(z.array(elasticEntitlementRecordSchema));
