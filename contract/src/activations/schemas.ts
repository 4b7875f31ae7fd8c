import { z } from 'zod';
import { dayOrEmptyText, dayText, displayDateTimeText } from '../common/dates.ts';
import { successOf } from '../common/envelope.ts';
import { activationIdField, customerNumberField } from '../common/fields.ts';
import {
  hostIdsField,
  hostIdTypesField,
  hostNameField,
  licenseServerSchema,
  operationKeyField,
} from '../license-servers/schemas.ts';

/** Spec 002 §3 "Activation (entitlement row)": one entitlement as the activations screens show it. */
export const activationRowSchema = z.object({
  activationid: z.string(),
  ansysproduct: z.string(),
  partNumber: z.string(),
  ansyslicensemodel: z.string(),
  isEval: z.boolean(),
  /** The line's quantity */
  ansyscount: z.number().int(),
  /** Assigned rows: seats on this host; available rows: seats activated on all hosts */
  ansysactivated: z.number().int(),
  /** Quantity minus activated on all hosts, never below zero */
  ansysavailable: z.number().int(),
  ansysborrowable: z.boolean(),
  /** 'YYYY-MM-DD' */
  startdate: dayText,
  enddate: dayText.nullable(),
  versiondate: dayText.nullable(),
  /** Days left (last day included), or PERMANENT, EXPIRED, NOT STARTED */
  remainingdays: z.union([z.number().int(), z.enum(['PERMANENT', 'EXPIRED', 'NOT STARTED'])]),
  usedDays: z.number().int(),
  usedDaysPercentage: z.number(),
  remainingdayscolor: z.enum(['green', 'orange', 'red']),
  /** Perpetual past its maintenance end, or lease past its end: may not be activated or deactivated */
  maintenanceExpired: z.boolean(),
  /** Live fulfillments of this entitlement on the host (assigned rows) */
  fulfillments: z.array(z.object({ FulfillmentID: z.number().int(), FulfillCount: z.number().int() })),
  account: z.object({ AccountID: z.string(), AccountName: z.string() }),
});
export type ActivationRow = z.infer<typeof activationRowSchema>;

/** POST /api/fulfillments/allentitlements and /api/fulfillments/entitlements. */
export const hostEntitlementsRequestSchema = z.strictObject({
  customerNumber: customerNumberField,
  customerEmail: z.string().max(320).optional(),
  /** The host's ids (comma-joined); absent for a host not saved yet (only available rows then) */
  serverId: hostIdsField.optional(),
  serverIdType: hostIdTypesField.optional(),
  activeOnly: z.boolean().optional(),
  sumOnly: z.boolean().optional(),
  forceSync: z.boolean().optional(),
});
export const allEntitlementsResponseSchema = successOf(
  z.object({
    server: licenseServerSchema.nullable(),
    assigned: z.array(activationRowSchema),
    available: z.array(activationRowSchema),
  }),
);
export const hostEntitlementsResponseSchema = successOf(z.array(activationRowSchema));

const batchFields = {
  customerNumber: customerNumberField,
  customerName: z.string().max(500).optional(),
  /** The client's clock when the user saved; recorded history uses the server's time */
  time: z.union([z.string().max(64), z.number()]).optional(),
  action: z.string().max(50).optional(),
  operationKey: operationKeyField.optional(),
};

/** POST /api/fulfillments/return: activations are fulfillment ids with negative counts. */
export const returnRequestSchema = z.strictObject({
  ...batchFields,
  /** What the user does: return seats, deactivate the host, or move them away in a rehost */
  lifecycle: z.enum(['return', 'deactivate', 'rehost']).optional(),
  /**
   * A rehost: the host the seats move to (and the source, prevServer), refused here as its create would refuse it,
   * before anything is returned (decision 047)
   */
  rehostTarget: z
    .strictObject({
      serverName: hostNameField,
      serverId: hostIdsField,
      serverIdType: hostIdTypesField,
      prevServer: z.strictObject({ serverId: hostIdsField, serverIdType: hostIdTypesField }),
    })
    .optional(),
  activations: z
    .array(
      z.strictObject({
        id: z.union([
          z.number().int().positive(),
          z
            .string()
            .regex(/^\d{1,15}$/)
            .transform(Number),
        ]),
        count: z.number().int().max(-1),
        customer: customerNumberField.optional(),
      }),
    )
    .min(1)
    .max(500),
});

/** POST /api/fulfillments/create: activations are activation ids with positive counts on one host. */
export const createRequestSchema = z.strictObject({
  ...batchFields,
  serverName: hostNameField,
  serverId: hostIdsField,
  serverIdType: hostIdTypesField,
  portNumber: z.number().int().min(1).max(65_535).optional(),
  ansysborrowable: z.boolean().optional(),
  /** new (a host added on the screen), rehost (the target of a rehost), or empty */
  type: z.enum(['new', 'rehost', '']).optional(),
  /** The rehost source, whose fulfillments the new ones continue */
  prevServer: z.strictObject({ serverId: hostIdsField, serverIdType: hostIdTypesField }).optional(),
  activations: z
    .array(
      z.strictObject({
        id: activationIdField,
        count: z.number().int().min(1),
        customer: customerNumberField.optional(),
        // Sent by the spec's client ("new ones also carry product, dates and borrowable", spec 002 §3 Operation
        // item, named as its entitlement row names them); not read: the server takes them from the entitlement.
        ansysproduct: z.string().max(500).optional(),
        startdate: z.string().max(64).nullable().optional(),
        enddate: z.string().max(64).nullable().optional(),
        ansysborrowable: z.boolean().optional(),
      }),
    )
    .min(1)
    .max(500),
});
export type CreateRequest = z.output<typeof createRequestSchema>;

/** Seats returned or created by this batch (a replayed batch answers its first outcome) */
export const batchResponseSchema = successOf(z.object({ count: z.number().int(), replayed: z.boolean() }));

/**
 * One row of a host's grouped activation history (spec 002 §4 "Activation history grouping", decision 032): the
 * events of one activation within one 30-second group, their counts summed.
 */
export const historyRowSchema = z.object({
  /** Groups are numbered from 1 (the host's oldest) in time order; rows of one group share it */
  groupId: z.number().int(),
  /** 'YYYY-MM-DD HH:mm:ss' UTC: the group's first (oldest) event */
  time: displayDateTimeText,
  modifiedBy: z.string(),
  /** 'ACTIVATE (n)' or 'DEACTIVATE (n)' */
  action: z.string(),
  customerNumber: z.string(),
  activationId: z.string(),
  product: z.string(),
  /** The summed counts: positive activated, negative returned */
  count: z.number().int(),
  /** '' when the activation's entitlement no longer exists */
  startDate: dayOrEmptyText,
  endDate: dayText.nullable(),
  /** A perpetual's maintenance end (its end date is null): the history shows 'Maintenance ends on {date}' */
  versionDate: dayText.nullable(),
});
export type HistoryRow = z.infer<typeof historyRowSchema>;

/** Spec 002 §7 (history page, path ours) and /api/fulfillments/servers/export: history of several hosts. */
export const hostsHistoryRequestSchema = z.strictObject({
  customerNumber: customerNumberField,
  customerEmail: z.string().max(320).optional(),
  forceSync: z.boolean().optional(),
  hostIds: z
    .array(z.strictObject({ hostId: hostIdsField, hostIdType: hostIdTypesField }))
    .min(1)
    .max(100),
});
export const hostsHistoryResponseSchema = successOf(
  z.array(
    z.object({
      hostId: z.string(),
      hostIdType: z.string(),
      /** Newest group first */
      rows: z.array(historyRowSchema),
    }),
  ),
);
