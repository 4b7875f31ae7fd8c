import { z } from 'zod';
import { successOf } from '../common/envelope.ts';
import { customerNumberField } from '../common/fields.ts';
import type { ColumnKinds } from '../query/schemas.ts';
import { filterRuleSchema, sortingSchema } from '../query/schemas.ts';

export const orgTypes = ['Undefined', 'Direct', 'Channel', 'Indirect'] as const;
export type OrgType = (typeof orgTypes)[number];

/** Server account record of the account lists. */
export const accountRowSchema = z.object({ AccountName: z.string(), AccountID: z.string() });
export type AccountRow = z.infer<typeof accountRowSchema>;

/** POST /api/getaccounts (+ /count, /distinct) and /api/getCustomerAccounts. */
export const getAccountsRequestSchema = z.strictObject({
  filter: filterRuleSchema.optional(),
  offset: z.number().int().min(0).optional(),
  token: z.string().max(2000).nullable().optional(),
  limit: z.number().int().min(1).max(500).optional(),
  customerEmail: z.string().max(320).optional(),
  /**
   * Sent by the spec's generic data service, which posts filter, sorting, token and limit to every table (spec 000
   * §7); not read: account lists are sorted in the browser (spec 000 §4.8).
   */
  sorting: sortingSchema.optional(),
});
export const getAccountsResponseSchema = successOf(z.array(accountRowSchema), {
  token: z.string().nullable(),
});
export const accountsCountRequestSchema = z.strictObject({ filter: filterRuleSchema.optional() });
export const accountsDistinctRequestSchema = z.strictObject({
  filter: filterRuleSchema.optional(),
  key: z.enum(['AccountName', 'AccountID']).default('AccountID'),
  /** Sent by the spec's generic data service with every distinct call (spec 001 §7); not read. */
  limit: z.number().int().min(1).max(10_000).optional(),
});

/** POST /api/accounts: the single-account check (limit 2) of spec 002. */
export const accountsCheckRequestSchema = z.strictObject({
  customerNumber: z.string().max(64).optional(),
  customerEmail: z.string().max(320).optional(),
  limit: z.number().int().min(1).max(500).optional(),
});

/** Customer info flags of spec 000 §3; has* flags are counts (zero means absent). */
export const accountInfoSchema = z.object({
  isPortalView: z.boolean(),
  isPortalEdit: z.boolean(),
  isAsc: z.boolean(),
  isFNPLicenseGenerator: z.boolean(),
  isAccessDisabled: z.boolean(),
  isSalesAccess: z.boolean(),
  isSales: z.boolean(),
  hasSSL: z.number().int(),
  hasSharedLicense: z.number().int(),
  hasNamedLicense: z.number().int(),
  hasFSA: z.number().int(),
  hasElastic: z.number().int(),
  orgType: z.enum(orgTypes),
  supportEmail: z.string(),
  exportControlStatus: z.string(),
});
export type AccountInfo = z.infer<typeof accountInfoSchema>;

export const customerSchema = z.object({
  customerNumber: z.string(),
  customerName: z.string(),
  info: accountInfoSchema,
});
export type Customer = z.infer<typeof customerSchema>;

export const customerNumberParamsSchema = z.strictObject({ customerNumber: customerNumberField });

export const accountInfoResponseSchema = successOf(customerSchema);

/** Column kinds of the account list (one declaration: the server's resource and the browser use it). */
export const accountColumnKinds = { AccountID: 'text', AccountName: 'text' } as const satisfies ColumnKinds;
