import { z } from 'zod';
import { dayText } from '../common/dates.ts';
import { successOf } from '../common/envelope.ts';
import { activationIdField, customerNumberField } from '../common/fields.ts';
import type { ColumnKinds } from '../query/schemas.ts';
import { countRequestSchema, distinctRequestSchema, pageRequestSchema } from '../query/schemas.ts';

/**
 * Spec 002 §7 "Leases/perpetuals": the fetchEntitlements family. `type` and `state` are accepted as the spec
 * sends them (type SSL, state Deployed); the server answers leases and perpetuals of state Deployed only, so
 * other values are refused rather than silently ignored. `attributes` (the columns the page wants) is accepted
 * and not needed: every row carries all of them.
 */
const leaseScope = {
  customerNumber: customerNumberField,
  type: z.literal('SSL').optional(),
  state: z.literal('Deployed').optional(),
};
export const leasesPageRequestSchema = pageRequestSchema.extend({
  ...leaseScope,
  attributes: z.array(z.string().max(100)).max(50).optional(),
});
export const leasesCountRequestSchema = countRequestSchema.extend(leaseScope);
export const leasesDistinctRequestSchema = distinctRequestSchema.extend(leaseScope);

/** Spec 002 §3 "Lease/perpetual server record" (plus Activated, the seats activated on hosts). */
export const leaseRecordSchema = z.object({
  ActivationId: z.string(),
  ProductName: z.string(),
  /** The product's part number. */
  PartNumber: z.string(),
  LineItemQuantity: z.number().int(),
  /** 'YYYY-MM-DD' */
  StartDate: dayText,
  /** 'YYYY-MM-DD'; null for a perpetual (permanent) entitlement */
  EndDate: dayText.nullable(),
  LicenseModel: z.string(),
  /** 'YYYY-MM-DD': end of maintenance of a perpetual; null when not given */
  VersionDate: dayText.nullable(),
  /** 'true' or 'false', as text (spec 002 §3) */
  IsActivationPermanent: z.enum(['true', 'false']),
  /** 'Evaluation' marks an evaluation; '' otherwise */
  Type: z.string(),
  EntitlementName: z.string(),
  EntitlementState: z.string(),
  meta_accountId: z.string(),
  /** Seats activated on license servers (sum of live fulfillments). */
  Activated: z.number().int(),
});
export type LeaseRecord = z.infer<typeof leaseRecordSchema>;

export const leasesPageResponseSchema = successOf(z.array(leaseRecordSchema), {
  token: z.string().nullable(),
});

/**
 * Column kinds of the leases tables (one declaration: the server's resource and the browser use it). Dates
 * are days, compared as UTC midnight; the text form (`tostring`) is 'YYYY-MM-DD 00:00:00'.
 */
export const leaseColumnKinds = {
  ActivationId: 'text',
  ProductName: 'text',
  PartNumber: 'text',
  LineItemQuantity: 'number',
  StartDate: 'timestamp',
  EndDate: 'timestamp',
  LicenseModel: 'text',
  VersionDate: 'timestamp',
  IsActivationPermanent: 'text',
  Type: 'text',
  EntitlementName: 'text',
  EntitlementState: 'text',
  meta_accountId: 'text',
  Activated: 'number',
} as const satisfies ColumnKinds;
export type LeaseColumn = keyof typeof leaseColumnKinds;

/** POST /api/fulfillments/count: seats activated per activation id (ids the account does not own are left out). */
export const fulfillmentCountRequestSchema = z.strictObject({
  customerNumber: customerNumberField,
  activationId: z.array(activationIdField).max(1000),
});
export const fulfillmentCountResponseSchema = successOf(z.record(z.string(), z.number().int()));
