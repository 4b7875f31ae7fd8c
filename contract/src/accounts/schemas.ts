import { z } from 'zod';
import { customerNumberField } from '../common/fields.ts';
import type { ColumnKinds } from '../query/schemas.ts';
import { filterRuleSchema } from '../query/schemas.ts';

export const orgTypes = ['Undefined', 'Direct', 'Channel', 'Indirect'] as const;
export type OrgType = (typeof orgTypes)[number];

/** Server account record of the account lists. */
export const accountRowSchema = z.object({ AccountName: z.string(), AccountID: z.string() });
export type AccountRow = z.infer<typeof accountRowSchema>;

/** POST /api/getaccounts (+ /count, /distinct) and /api/getCustomerAccounts. */
export const getAccountsRequestSchema = z.object({
  filter: filterRuleSchema.optional(),
  offset: z.number().int().min(0).optional(),
  token: z.string().max(2000).nullable().optional(),
  limit: z.number().int().min(1).max(500).optional(),
  customerEmail: z.string().max(320).optional(),
});
export const getAccountsResponseSchema = z.object({
  status: z.literal('SUCCESS'),
  data: z.array(accountRowSchema),
  token: z.string().nullable(),
});
export const accountsCountRequestSchema = z.object({ filter: filterRuleSchema.optional() });
export const accountsDistinctRequestSchema = z.object({
  filter: filterRuleSchema.optional(),
  key: z.enum(['AccountName', 'AccountID']).default('AccountID'),
});

/** POST /api/accounts: the single-account check (limit 2) of spec 002. */
export const accountsCheckRequestSchema = z.object({
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

export const customerNumberParamsSchema = z.object({ customerNumber: customerNumberField });

export const accountInfoResponseSchema = z.object({
  status: z.literal('SUCCESS'),
  data: customerSchema,
});

/** Column kinds of the account list (one declaration: the server's resource and the browser use it). */
export const accountColumnKinds = { AccountID: 'text', AccountName: 'text' } as const satisfies ColumnKinds;
