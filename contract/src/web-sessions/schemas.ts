import { denialReasons } from '@lp/domain/web-seats';
import { z } from 'zod';
import { displayDateTimeText, instantText } from '../common/dates.ts';
import { successOf } from '../common/envelope.ts';
import { customerNumberField } from '../common/fields.ts';
import { operationKeyField } from '../license-servers/schemas.ts';
import {
  type ColumnKinds,
  countRequestSchema,
  distinctRequestSchema,
  pageRequestSchema,
} from '../query/schemas.ts';

/**
 * Web licensing's sessions (issue 24, decision 071): the product API /web/v1 a vendor product calls with its
 * per-product credential (checkout, heartbeat, release), and the portal's view of the open sessions.
 */

const leaseIdField = z.uuid();
const partNumberField = z.string().trim().min(1).max(100);
const denialReasonCodes = Object.keys(denialReasons) as [
  keyof typeof denialReasons,
  ...(keyof typeof denialReasons)[],
];

/** How a lease ended, or 'open' while it lives. */
export const leaseOutcomes = [
  'open',
  'released',
  'idle-timeout',
  'heartbeat-lost',
  'admin-released',
  'user-removed',
] as const;

/** POST /web/v1/checkout: a seat of the part number for the person of the account. */
export const webCheckoutRequestSchema = z.strictObject({
  customerNumber: customerNumberField,
  /** The person as the account's directory knows them (compared without regard to case). */
  email: z.email().max(254),
  partNumber: partNumberField,
  /** What the product says about where it runs (a browser, a host); shown on /web-transactions. */
  client: z.string().trim().max(200).default(''),
  operationKey: operationKeyField.optional(),
});

/** When the lease must be renewed and how often to send heartbeats. */
const leaseTimesSchema = z.object({
  leaseId: leaseIdField,
  /** The heartbeat deadline: without a heartbeat by then the lease ends heartbeat-lost. */
  expiresAt: instantText,
  /** How often to send a heartbeat: a third of the pool's heartbeat window. */
  heartbeatSeconds: z.number().int(),
});

export const webCheckoutResultSchema = z.discriminatedUnion('granted', [
  leaseTimesSchema.extend({
    granted: z.literal(true),
    seat: z.enum(['named', 'shared']),
    /** The group whose guarantee or cap the shared seat counts to; absent for named seats and free seats. */
    group: z.object({ id: z.string(), name: z.string() }).optional(),
  }),
  z.object({
    granted: z.literal(false),
    reason: z.enum(denialReasonCodes),
    /** The reason in words a person can be shown. */
    message: z.string(),
  }),
]);
export type WebCheckoutResult = z.infer<typeof webCheckoutResultSchema>;
export const webCheckoutResponseSchema = successOf(webCheckoutResultSchema);

/** POST /web/v1/heartbeat: the lease lives on; `active` says the person did something since the last one. */
export const webHeartbeatRequestSchema = z.strictObject({
  leaseId: leaseIdField,
  active: z.boolean().optional(),
});
export const webHeartbeatResponseSchema = successOf(leaseTimesSchema);

/** A lease as it stands after a release. */
export const webLeaseStateSchema = z.object({
  leaseId: leaseIdField,
  outcome: z.enum(leaseOutcomes),
  endedAt: instantText.nullable(),
});
export type WebLeaseState = z.infer<typeof webLeaseStateSchema>;

/** POST /web/v1/release */
export const webReleaseRequestSchema = z.strictObject({ leaseId: leaseIdField });
export const webReleaseResponseSchema = successOf(webLeaseStateSchema);

/** POST /api/web/sessions: the account's open sessions, of one person when `userId` is given. */
export const listOpenWebSessionsRequestSchema = z.strictObject({
  customerNumber: customerNumberField,
  userId: z.uuid().optional(),
});
export const openWebSessionSchema = z.object({
  leaseId: leaseIdField,
  userId: z.string().nullable(),
  email: z.string(),
  name: z.string(),
  partNumber: z.string(),
  seat: z.enum(['named', 'shared']),
  group: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** The vendor product that checked the seat out, and its client. */
  product: z.string(),
  client: z.string(),
  startedAt: instantText,
  lastHeartbeatAt: instantText.nullable(),
  lastActivityAt: instantText.nullable(),
});
export type OpenWebSession = z.infer<typeof openWebSessionSchema>;
export const listOpenWebSessionsResponseSchema = successOf(z.array(openWebSessionSchema));

/** POST /api/web/sessions/release: an administrator ends a session. */
export const releaseWebSessionRequestSchema = z.strictObject({
  customerNumber: customerNumberField,
  leaseId: leaseIdField,
});
export const releaseWebSessionResponseSchema = successOf(webLeaseStateSchema);

/* /web-transactions (decision 071): every lease and denial of the account through the generic query engine. */

/** The CSV export reads at most this many rows in one page (the grid pages by 100). */
export const WEB_TRANSACTIONS_EXPORT_MAX = 10_000;

/**
 * Columns of a web transaction a client may filter, sort and ask distinct values of. Outcome and DenialReason are
 * the words the page shows (domain/src/web-reporting.ts leaseOutcomeLabels, denialReasonLabels); Duration is in
 * minutes (an open lease's so far; none for a denial); Product is the pool's product name, Application the vendor
 * product that checked the seat out.
 */
export const webTransactionColumnKinds = {
  Start: 'timestamp',
  End: 'timestamp',
  Duration: 'number',
  Email: 'text',
  UserName: 'text',
  Group: 'text',
  PartNumber: 'text',
  Product: 'text',
  Application: 'text',
  Client: 'text',
  Outcome: 'text',
  DenialReason: 'text',
} as const satisfies ColumnKinds;
export type WebTransactionColumn = keyof typeof webTransactionColumnKinds;
export const webTransactionColumns = Object.keys(webTransactionColumnKinds) as WebTransactionColumn[];

const transactionsScope = { customerNumber: customerNumberField };

/** POST /api/web/transactions: default sort Start descending (newest first). */
export const webTransactionsPageRequestSchema = pageRequestSchema.extend({
  ...transactionsScope,
  limit: z.number().int().min(1).max(WEB_TRANSACTIONS_EXPORT_MAX).optional(),
});
export const webTransactionsCountRequestSchema = countRequestSchema.extend(transactionsScope);
export const webTransactionsDistinctRequestSchema = distinctRequestSchema.extend(transactionsScope);

/** A lease or denial; instants as 'YYYY-MM-DD HH:mm:ss' (UTC). End and Duration are null while open and for denials. */
export const webTransactionRowSchema = z.object({
  Start: displayDateTimeText,
  End: displayDateTimeText.nullable(),
  Duration: z.number().nullable(),
  Email: z.string(),
  UserName: z.string(),
  Group: z.string(),
  PartNumber: z.string(),
  Product: z.string(),
  Application: z.string(),
  Client: z.string(),
  Outcome: z.string(),
  DenialReason: z.string(),
});
export type WebTransactionRow = z.infer<typeof webTransactionRowSchema>;
export const webTransactionsPageResponseSchema = successOf(z.array(webTransactionRowSchema), {
  token: z.string().nullable(),
});

/** POST /api/web/transactions/as-of: the latest lease start or end of the account (null: none yet). */
export const webTransactionsAsOfRequestSchema = z.strictObject(transactionsScope);
export const webTransactionsAsOfResponseSchema = successOf(
  z.object({ asOf: displayDateTimeText.nullable() }),
);
