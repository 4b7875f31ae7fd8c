import { z } from 'zod';
import { successOf } from '../common/envelope.ts';
import { customerNumberField } from '../common/fields.ts';

/** A host's ids as the spec's calls carry them: comma-joined for a triad ('a,b,c'), checked by @lp/domain/host-ids. */
export const hostIdsField = z.string().trim().min(1).max(200);
/** The ids' types, comma-joined like the ids (ETHERNET, DISK_SERIAL_NUM, FLEXID or their codes 1/2/3, D/E/F). */
export const hostIdTypesField = z.string().trim().min(1).max(100);
/** A host name as typed (checked by @lp/domain/host-ids validateHostName; comma-joined for a triad). */
export const hostNameField = z.string().max(200);
/**
 * A client's key for one write batch (return, create, shared group, remove host): a retry with the same key answers
 * the first outcome and changes nothing (decision 029). Optional for callers that do not retry.
 */
export const operationKeyField = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{8,100}$/, 'operationKey must be 8-100 letters, digits, - or _');

export const hostStates = ['Active', 'Inactive', 'Unknown'] as const;

/** Spec 002 §3 "Server (host)". */
export const licenseServerSchema = z.object({
  id: z.number().int(),
  /** The first server's name */
  name: z.string(),
  /** Every server's name, comma-joined (three for a triad) */
  serverName: z.string(),
  state: z.enum(hostStates),
  /** Lower-case ids, comma-joined for a triad */
  serverId: z.string(),
  serverIdType: z.string(),
  /** Spec: 'TYPE=id' per id ('TYPE=' omitted for ETHERNET), comma-joined */
  hostIdentifier: z.string(),
  /** Human-readable: name and ids with ETHERNET shown as MAC_ADDRESS */
  displayName: z.string(),
  portNumber: z.number().int(),
  triad: z.boolean(),
  ansysborrowable: z.boolean(),
  /** The host serves more accounts than this one (a shared license server) */
  shared: z.boolean(),
});
export type LicenseServer = z.infer<typeof licenseServerSchema>;

/** POST /api/fulfillments/servers */
export const serversRequestSchema = z.strictObject({
  customerNumber: customerNumberField,
  customerEmail: z.string().max(320).optional(),
  forceSync: z.boolean().optional(),
});
export const serversResponseSchema = successOf(z.array(licenseServerSchema));

/** Calls that name a host by its ids (spec 002 §7: customers, override, sharedserver...). */
export const hostRequestSchema = z.strictObject({
  customerNumber: customerNumberField,
  hostId: hostIdsField,
  hostIdType: hostIdTypesField,
  customerEmail: z.string().max(320).optional(),
});

/** POST /api/fulfillments/customers: the accounts the host serves that the user may see. */
export const hostCustomersResponseSchema = successOf(
  z.array(z.object({ AccountID: z.string(), AccountName: z.string() })),
);

/**
 * POST /api/fulfillments/override: whether the host is shared. `otherCustomers` counts the accounts served that the
 * user cannot see (decision 029: a number, never their names).
 */
export const hostOverrideResponseSchema = successOf(
  z.object({ shared: z.boolean(), otherCustomers: z.number().int() }),
);

/** POST /api/sharedserver: the host's shared-server group becomes these approved accounts. */
export const sharedServerRequestSchema = hostRequestSchema.extend({
  group: z.array(customerNumberField).min(1).max(100),
  operationKey: operationKeyField.optional(),
});
export const sharedServerDeactivateRequestSchema = hostRequestSchema.extend({
  operationKey: operationKeyField.optional(),
});
/**
 * POST /api/fulfillments/servers/settings (decision 048): the host's Borrowable setting, saved on its own (a change
 * without seat changes). It goes into every account's file, so only a user who may edit every account on the host
 * changes it.
 */
export const hostSettingsRequestSchema = hostRequestSchema.extend({
  ansysborrowable: z.boolean(),
  operationKey: operationKeyField.optional(),
});
/** POST /api/sharedserver/remove: deletes an inactive host for this account (the row goes with its last account). */
export const removeServerRequestSchema = hostRequestSchema.extend({
  operationKey: operationKeyField.optional(),
});

/** Spec 002 §3 "Uploaded host file result". */
export const uploadedHostSchema = z.object({
  serverName: z.string(),
  serverId: z.string(),
  serverIdType: z.string(),
  /** The servers' names, space-separated */
  quorum: z.string(),
  numServers: z.number().int(),
  /** The SERVER line's port when the uploaded file names one */
  portNumber: z.number().int().optional(),
});
export const uploadServerIdResponseSchema = successOf(uploadedHostSchema);
