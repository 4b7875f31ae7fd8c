import { z } from 'zod';
import { displayDateTimeText } from '../common/dates.ts';
import { successOf } from '../common/envelope.ts';
import { customerNumberField } from '../common/fields.ts';
import type { ColumnKinds } from '../query/schemas.ts';
import { countRequestSchema, distinctRequestSchema, pageRequestSchema } from '../query/schemas.ts';

/** Spec 001 §9: a CSV export takes at most this many transactions. */
export const CSV_EXPORT_MAX = 30_000;

/**
 * Columns of a usage transaction (spec 001 §3 "Usage transaction attributes") a client may filter, sort and
 * ask distinct values of. The spec's brand-dependent "{product}CloudJobId" is named CloudJobId, as
 * "{product}ExportControlStatus" became exportControlStatus (docs/decisions/005): a field name that
 * changed with the configured brand would make the contract depend on configuration.
 */
export const usageColumns = [
  'StartTime',
  'EndTime',
  'Product',
  'ProductCount',
  'Hours',
  'Charge',
  'Currency',
  'User',
  'Host',
  'Project',
  'DeviceID',
  'SessionStatus',
  'REFERER_IP_ADDRESS',
  'productVersion',
  'CloudJobId',
  'ServerID',
  'AccountID',
  'RateFileVersion',
  'Active',
] as const;
export type UsageColumn = (typeof usageColumns)[number];

/** Attributes a row may carry: the columns plus the instants as epoch milliseconds. */
export const usageAttributes = [...usageColumns, 'StartTime_ts', 'EndTime_ts'] as const;
export type UsageAttribute = (typeof usageAttributes)[number];

const scope = {
  customerNumber: customerNumberField,
  /** Sent by the browser for the record; the server uses its own account name. */
  customerName: z.string().max(200).optional(),
  /** One elastic license server (clsId) of the account; all of its servers when absent. */
  serverId: z.string().trim().min(1).max(200).nullable().optional(),
};

/**
 * POST /api/fetchUsage: the generic page query (spec 000 §3) over usage_sessions of one account. The period
 * is an ordinary criterion, e.g. {name: 'StartTime', method: 'DATERANGE', value: [from, to]}; Active
 * sessions are {name: 'Active', method: 'EQUALS', value: true}. StartTime and EndTime ascending are appended
 * to every sort (spec 001 §2.3); default sort StartTime ascending. `attributes` limits the row fields.
 */
export const fetchUsageRequestSchema = pageRequestSchema.extend({
  ...scope,
  /** Above 1000 (the CSV export) the page is streamed and admitted per user (decision 021). */
  limit: z.number().int().min(1).max(CSV_EXPORT_MAX).optional(),
  attributes: z.array(z.enum(usageAttributes)).max(usageAttributes.length).optional(),
});
export type FetchUsageRequest = z.input<typeof fetchUsageRequestSchema>;
export const usageCountRequestSchema = countRequestSchema.extend(scope);
export const usageDistinctRequestSchema = distinctRequestSchema.extend(scope);

/** A session; instants as 'YYYY-MM-DD HH:mm:ss' (UTC) and epoch ms; EndTime is null while it is active. */
export const usageRowSchema = z
  .object({
    StartTime: displayDateTimeText,
    EndTime: displayDateTimeText.nullable(),
    StartTime_ts: z.number(),
    EndTime_ts: z.number().nullable(),
    Product: z.string(),
    ProductCount: z.number(),
    Hours: z.number(),
    Charge: z.number(),
    Currency: z.string(),
    User: z.string(),
    Host: z.string(),
    Project: z.string(),
    DeviceID: z.string(),
    SessionStatus: z.string(),
    REFERER_IP_ADDRESS: z.string(),
    productVersion: z.string(),
    CloudJobId: z.string().nullable(),
    ServerID: z.string(),
    AccountID: z.string(),
    RateFileVersion: z.string(),
    Active: z.boolean(),
  })
  .partial();
export type UsageRow = z.infer<typeof usageRowSchema>;

export const fetchUsageResponseSchema = successOf(z.array(usageRowSchema), { token: z.string().nullable() });

/** Column kinds of the usage transactions table (one declaration: the server's resource and the browser use it). */
export const usageColumnKinds = {
  StartTime: 'timestamp',
  EndTime: 'timestamp',
  Product: 'text',
  ProductCount: 'number',
  Hours: 'number',
  Charge: 'number',
  Currency: 'text',
  User: 'text',
  Host: 'text',
  Project: 'text',
  DeviceID: 'text',
  SessionStatus: 'text',
  REFERER_IP_ADDRESS: 'text',
  productVersion: 'text',
  CloudJobId: 'text',
  ServerID: 'text',
  AccountID: 'text',
  RateFileVersion: 'text',
  Active: 'boolean',
} as const satisfies ColumnKinds;
