import { z } from 'zod';
import { dayText, displayDateTimeOrEmptyText, displayDateTimeText } from '../common/dates.ts';
import { successOf } from '../common/envelope.ts';
import { activationIdField, customerNumberField } from '../common/fields.ts';
import { operationKeyField } from '../license-servers/schemas.ts';

/**
 * Flexible Spending Account (spec 002 §3, issue 12 §1). Money is integer cents of the contract's currency
 * everywhere on the wire, the spec's `ansysprice` and `cost` included (decision 036).
 */

const cents = z.number().int();

/** POST /api/fsa/contracts and /api/fsa/history. */
export const fsaAccountRequestSchema = z.strictObject({ customerNumber: customerNumberField });

/** One FSA contract with its balance from the ledger (budget − sum of its order lines). */
export const fsaContractSchema = z.object({
  entitlementId: z.string(),
  orderId: z.string(),
  poNumber: z.string().nullable(),
  startDate: dayText,
  endDate: dayText.nullable(),
  currency: z.string(),
  budgetCents: cents,
  usedCents: cents,
  remainingCents: cents,
  /** 1/99 rule of domain/src/entitlements.ts */
  usedPercentage: z.number().int(),
  remainingdays: z.union([z.number().int(), z.enum(['NOT STARTED', 'EXPIRED'])]),
  usedDays: z.number().int(),
  usedDaysPercentage: z.number(),
  colours: z.object({
    remainingdays: z.enum(['green', 'orange', 'red']),
    usedpercentage: z.enum(['green', 'orange', 'red']),
  }),
  /** Spec 002 §4 classification: NOT STARTED active, EXPIRED or exactly 100 % used inactive */
  active: z.boolean(),
  busopsEmails: z.array(z.string()),
  /** Last order against the contract, 'YYYY-MM-DD HH:mm:ss' UTC (the order page's default contract) */
  lastOrderedAt: displayDateTimeText.nullable(),
  hasProducts: z.boolean(),
  /** Sum of the contract's order line costs per UTC order day, ascending; every line, manual ones included */
  dailySpend: z.array(z.object({ day: dayText, cents })),
});
export type FsaContract = z.infer<typeof fsaContractSchema>;
export const fsaContractsResponseSchema = successOf(z.array(fsaContractSchema));

/** POST /api/fsa/products */
export const fsaProductsRequestSchema = z.strictObject({
  customerNumber: customerNumberField,
  entitlementId: activationIdField,
});
export const fsaProductSchema = z.object({
  partNumber: z.string(),
  name: z.string(),
  price7Days: cents.nullable(),
  price30Days: cents.nullable(),
  price60Days: cents.nullable(),
  price90Days: cents.nullable(),
  price180Days: cents.nullable(),
  price1Year: cents.nullable(),
  /** '- Shared Web' / '- Named User' products are ordered as manual entries (business operations only) */
  manual: z.boolean(),
});
export type FsaProduct = z.infer<typeof fsaProductSchema>;
export const fsaProductsResponseSchema = successOf(z.array(fsaProductSchema));

/** Spec 002 §3 order-history row; `cost` in cents. */
export const fsaHistoryRowSchema = z.object({
  entitlementId: z.string(),
  ansysproduct: z.string(),
  fsaId: z.string(),
  /** 'YYYY-MM-DD HH:mm:ss' UTC; '' for a line without an order time */
  orderdate: displayDateTimeOrEmptyText,
  count: z.number().int(),
  startdate: dayText,
  enddate: dayText.nullable(),
  cost: cents,
  currency: z.string(),
  requester: z.string(),
});
export type FsaHistoryRow = z.infer<typeof fsaHistoryRowSchema>;
export const fsaHistoryResponseSchema = successOf(z.array(fsaHistoryRowSchema));

const optionalText = z.string().max(500).optional();

/**
 * Spec 002 §3 order request product item, plus `duration` (the server prices standard lines itself) and
 * `unitCents` or `costCents` (manual entries and busops' edited unit cost or cost). `ansysprice` is the client's line cost in cents:
 * checked against the server's price, never trusted.
 */
export const fsaOrderLineSchema = z.strictObject({
  ansysbpn: z.string().trim().max(100).optional(),
  /** Empty = 1 (spec 002 §5) */
  ansyscount: z.number().int().min(-1_000_000).max(1_000_000).nullable().optional(),
  ansysprice: cents.min(0).max(1e15).optional(),
  startdate: z.string().trim().max(20),
  enddate: z.string().trim().max(20).optional(),
  duration: z.enum(['7', '30', '60', '90', '180', '365', 'remainder']).optional(),
  unitCents: cents.min(0).max(1e9).optional(),
  /** The line's cost as business operations typed it (decision 050): ordered exactly; instead of `unitCents` */
  costCents: cents.min(0).max(1e15).optional(),
  manualentry: z.boolean().optional(),
  manualProductName: z.string().trim().max(200).optional(),
  ansysponum: optionalText,
  ansyspriceusd: z.union([z.number(), z.string().max(50)]).optional(),
  ansysproduct: optionalText,
  ansysquantity: z.number().int().optional(),
  ansystype: optionalText,
  ansyscurrency: optionalText,
  customerNumber: optionalText,
  customerName: optionalText,
  daemon: optionalText,
  orderid: optionalText,
  productitemnumber: optionalText,
});
export type FsaOrderLine = z.infer<typeof fsaOrderLineSchema>;

/** POST /api/entitlements: spec 002 §3 order request, idempotent per `orderKey`. */
export const fsaOrderRequestSchema = z.strictObject({
  ansyshasfsa: z.boolean().optional(),
  accountid: optionalText,
  customerNumber: customerNumberField,
  orderid: optionalText,
  /** The contract's entitlement id */
  fsaID: activationIdField,
  ansyscurrency: optionalText,
  ansysbusopsemails: z.union([z.string().max(2000), z.array(z.string().max(320)).max(50)]).optional(),
  orderKey: operationKeyField.optional(),
  products: z.array(fsaOrderLineSchema).min(1).max(500),
});
export type FsaOrderRequest = z.infer<typeof fsaOrderRequestSchema>;

/** Spec 002 §7: one answer per line, in the request's order; `ansysprice` = the cost drawn (cents). */
export const fsaOrderResultSchema = z.object({
  status: z.enum(['SUCCESS', 'FAILURE']),
  ansysbpn: z.string(),
  // Not a format: a FAILURE line may echo any text the request sent (its error says why).
  startdate: z
    .string()
    .meta({ description: 'YYYY-MM-DD on a SUCCESS line; a FAILURE line echoes the text sent' }),
  enddate: z
    .string()
    .meta({ description: "YYYY-MM-DD on a SUCCESS line; a FAILURE line echoes the text sent, or ''" }),
  ansysquantity: z.number().int(),
  ansysprice: cents,
  err: z.string(),
  /** The new lease entitlement's id (successful lines) */
  entitlementId: z.string().optional(),
});
export type FsaOrderResult = z.infer<typeof fsaOrderResultSchema>;
export const fsaOrderResponseSchema = successOf(z.array(fsaOrderResultSchema), {
  /** True when this answers an earlier request with the same orderKey (nothing was ordered again) */
  replayed: z.boolean(),
});
