import { z } from 'zod';
import { displayDateTimeText } from '../common/dates.ts';
import { successOf, successWith } from '../common/envelope.ts';
import { customerNumberField } from '../common/fields.ts';

/** GET /api/config: what the browser needs before it renders (spec 000 §3 "Configuration loaded at start"). */
export const clientConfigSchema = z.object({
  apiUrl: z.string(),
  editprofileurl: z.string(),
  supportRequesturl: z.string(),
  documentationUrl: z.string(),
  privacyUrl: z.string(),
  production: z.boolean(),
  productName: z.string(),
  providerName: z.string(),
  loginUrl: z.string(),
  logoutUrl: z.string(),
  /** Vendor's elastic licensing terms page (the Rate Table link on /elastic). */
  elasticTermsUrl: z.string(),
  /** The server's ACCOUNT_LIST_MAX: a top-bar search matching this many accounts or more is "too many". */
  accountListMax: z.number().int().positive(),
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;

export const environmentValues = ['dev', 'uat', 'prod'] as const;

export const buildInfoResponseSchema = successOf(z.string(), { err: z.string().nullable() });

export const lastUpdatedQuerySchema = z.strictObject({ accountId: customerNumberField.optional() });
export const lastUpdatedResponseSchema = successWith({ lastUpdatedOn: displayDateTimeText.nullable() });
