import { z } from 'zod';
import { customerNumberField } from '../common/fields.ts';
import { hostIdsField, hostIdTypesField, hostNameField } from '../license-servers/schemas.ts';

/** A file as the answers carry it: its name and its whole text. */
export const licenseFileSchema = z.object({ fileName: z.string(), text: z.string() });
export type LicenseFile = z.infer<typeof licenseFileSchema>;

/**
 * POST /api/fulfillments/license (spec 002 §7): the account's license text for one host. `customerName`, `time`
 * and `serverName` are accepted as the spec sends them and not needed (the server knows the host and the account).
 */
export const licenseRequestSchema = z.object({
  customerNumber: customerNumberField,
  customerName: z.string().max(200).optional(),
  time: z.string().max(64).optional(),
  serverName: hostNameField.optional(),
  serverId: hostIdsField,
  serverIdType: hostIdTypesField,
  /** BORROW on borrowable lines; the host's own setting when absent */
  ansysborrowed: z.boolean().optional(),
});
export const licenseResponseSchema = z.object({
  status: z.literal('SUCCESS'),
  /** Spec 002 §3 "License results": one complete file per vendor daemon */
  licenseText: z.record(z.string(), z.string()),
  /** license_{customerNumber}_{serverId}.lic: every daemon's lines of the account in one file */
  licenseFileName: z.string(),
  /** The same lines as one file (what licenseFileName names) */
  text: z.string(),
  /** A shared host: per daemon, the lines of every account the user may see ('{daemon}…_shared.lic') */
  shared: z.array(licenseFileSchema),
});

/**
 * The history page's "license text for customers" (path ours: /api/fulfillments/licenses): one entry per customer,
 * merged into one file; a customer without anything activated is reported and tolerated unless none has any.
 */
export const licensesRequestSchema = z.object({
  hostId: hostIdsField,
  hostIdType: hostIdTypesField,
  borrowable: z.boolean().optional(),
  customers: z
    .array(z.object({ customerNumber: customerNumberField, customerName: z.string().max(200).optional() }))
    .min(1)
    .max(100),
});
export const licenseResultSchema = z.object({
  customerNumber: z.string(),
  status: z.enum(['SUCCESS', 'FAILURE']),
  err: z.string().optional(),
  licenseText: z.record(z.string(), z.string()),
  licenseFileName: z.string(),
});
export const licensesResponseSchema = z.object({
  status: z.literal('SUCCESS'),
  data: z.array(licenseResultSchema),
  /** Every customer's lines in one file (one set of SERVER lines, VENDOR lines once) */
  merged: licenseFileSchema,
  shared: z.array(licenseFileSchema),
});

/** POST /api/fulfillments/download: the merged file of the host for the accounts the user may see. */
export const downloadRequestSchema = z.object({
  customerNumber: customerNumberField,
  customerName: z.string().max(200).optional(),
  serverName: hostNameField.optional(),
  serverId: hostIdsField,
  serverIdType: hostIdTypesField,
});

/**
 * POST /api/fulfillments/email (decision 030): the server regenerates and signs the file itself and sends it to the
 * account's support list (copy to the user); `licenseText`, `supportEmailTo` and `supportEmailCc` are accepted as
 * the spec sends them but not trusted — nobody can mail arbitrary text or addresses through the portal.
 */
export const emailRequestSchema = z.object({
  customerNumber: customerNumberField,
  customerName: z.string().max(200).optional(),
  serverName: hostNameField.optional(),
  serverId: hostIdsField,
  serverIdType: hostIdTypesField.optional(),
  licenseText: z.unknown().optional(),
  supportEmailTo: z.unknown().optional(),
  supportEmailCc: z.unknown().optional(),
});

/** GET /api/license-keys: the public keys that verify license files offline (decision 028). */
export const licenseKeySchema = z.object({
  keyId: z.string(),
  publicKeyPem: z.string(),
  createdAt: z.string(),
  /** Files signed before this still verify; new files use the current key */
  retiredAt: z.string().nullable(),
});
export const licenseKeysResponseSchema = z.object({
  status: z.literal('SUCCESS'),
  data: z.array(licenseKeySchema),
});
