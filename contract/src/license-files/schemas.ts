import { z } from 'zod';
import { instantText } from '../common/dates.ts';
import { successOf, successWith } from '../common/envelope.ts';
import { activationIdField, customerNumberField } from '../common/fields.ts';
import { hostIdsField, hostIdTypesField, hostNameField } from '../license-servers/schemas.ts';

/** A file as the answers carry it: its name and its whole text. */
export const licenseFileSchema = z.object({ fileName: z.string(), text: z.string() });
export type LicenseFile = z.infer<typeof licenseFileSchema>;

/**
 * POST /api/fulfillments/license (spec 002 §7): the account's license text for one host. `customerName`, `time`
 * and `serverName` are accepted as the spec sends them and not needed (the server knows the host and the account).
 */
export const licenseRequestSchema = z.strictObject({
  customerNumber: customerNumberField,
  customerName: z.string().max(200).optional(),
  time: z.string().max(64).optional(),
  serverName: hostNameField.optional(),
  serverId: hostIdsField,
  serverIdType: hostIdTypesField,
  /** BORROW on borrowable lines; the host's own setting when absent */
  ansysborrowed: z.boolean().optional(),
});
export const licenseResponseSchema = successWith({
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
export const licensesRequestSchema = z.strictObject({
  hostId: hostIdsField,
  hostIdType: hostIdTypesField,
  borrowable: z.boolean().optional(),
  customers: z
    .array(
      z.strictObject({ customerNumber: customerNumberField, customerName: z.string().max(200).optional() }),
    )
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
export const licensesResponseSchema = successOf(z.array(licenseResultSchema), {
  /** Every customer's lines in one file (one set of SERVER lines, VENDOR lines once) */
  merged: licenseFileSchema,
  shared: z.array(licenseFileSchema),
});

/** POST /api/fulfillments/download: the merged file of the host for the accounts the user may see. */
export const downloadRequestSchema = z.strictObject({
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
export const emailRequestSchema = z.strictObject({
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
  createdAt: instantText,
  /** Files signed before this still verify; new files use the current key */
  retiredAt: instantText.nullable(),
});
export const licenseKeysResponseSchema = successOf(z.array(licenseKeySchema));

/**
 * POST /api/fulfillments/license/preview (decision 032): what the customers' license files for the host would gain
 * and lose if these returns and creates were saved. Nothing is saved. `serverName` names a host not saved yet.
 */
export const previewRequestSchema = z.strictObject({
  customerNumber: customerNumberField,
  serverId: hostIdsField.optional(),
  serverIdType: hostIdTypesField.optional(),
  serverName: hostNameField.optional(),
  /**
   * The host's Borrowable setting once saved (decision 048): BORROW on borrowable lines after the change; the host's
   * own setting when absent (a new host: none). Before the change the saved setting applies.
   */
  ansysborrowable: z.boolean().optional(),
  customers: z
    .array(
      z.strictObject({
        customerNumber: customerNumberField,
        /** Fulfillment ids of the customer on this host with negative counts */
        returns: z
          .array(z.strictObject({ id: z.number().int().positive(), count: z.number().int().max(-1) }))
          .max(500),
        /** Activation ids of the customer with positive counts */
        creates: z.array(z.strictObject({ id: activationIdField, count: z.number().int().min(1) })).max(500),
      }),
    )
    .min(1)
    .max(100),
});
export type PreviewRequest = z.output<typeof previewRequestSchema>;
export const previewResponseSchema = successOf(
  z.array(
    z.object({
      customerNumber: z.string(),
      /**
       * INCREMENT lines the customer's file gains / loses, each as one display line: the line's tokens as the
       * file writes them, without SIGN and ISSUED (they change on every generation). A changed count is its old
       * line removed and its new line added.
       */
      added: z.array(z.string()),
      removed: z.array(z.string()),
    }),
  ),
);

export const licenseLineVerdicts = ['valid', 'invalid', 'unsigned', 'unknown-key', 'foreign'] as const;

/**
 * POST /api/license-files/verify (multipart: one `file`, at most 1 MB): every feature line of an uploaded license
 * file checked against the published keys. Reads only the file's own content.
 */
export const verifyResponseSchema = successOf(
  z.object({
    /** Customer numbers found in VENDOR_STRING customer:… */
    customers: z.array(z.string()),
    /** The SERVER lines' host ids as written */
    hostIds: z.array(z.string()),
    lines: z.array(
      z.object({
        /** 1-based line of the feature line's first physical line */
        line: z.number().int(),
        keyword: z.string(),
        feature: z.string(),
        verdict: z.enum(licenseLineVerdicts),
        reason: z.string(),
        keyId: z.string().nullable(),
        customerNumber: z.string().nullable(),
      }),
    ),
  }),
);
export type VerifyResult = z.infer<typeof verifyResponseSchema>['data'];
