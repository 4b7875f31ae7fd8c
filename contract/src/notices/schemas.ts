import { z } from 'zod';
import { dayText } from '../common/dates.ts';
import { successOf } from '../common/envelope.ts';
import { customerNumberField } from '../common/fields.ts';

/** Proactive notices (issue 13 §2, decision 041). */

export const noticeTypeSchema = z.enum([
  'lease-ending',
  'maintenance-ending',
  'evaluation-ending',
  'elastic-usage',
  'fsa-usage',
  'elastic-run-out',
  'fsa-run-out',
  // Web licensing (decision 071): named web seats nobody used for 30 days, once a week.
  'web-seats-inactive',
]);
export type NoticeTypeName = z.infer<typeof noticeTypeSchema>;

export const noticeChoicesSchema = z.strictObject({
  /** Days before an end: any of 90, 30, 7 */
  expiryDays: z.array(z.union([z.literal(90), z.literal(30), z.literal(7)])).max(3),
  /** Used percentages: any of 80, 95 */
  usagePercents: z.array(z.union([z.literal(80), z.literal(95)])).max(2),
  runOut: z.boolean(),
});
export type NoticeChoicesBody = z.infer<typeof noticeChoicesSchema>;

export const noticesRequestSchema = z.strictObject({ customerNumber: customerNumberField });

export const noticeSchema = z.object({
  id: z.number().int(),
  type: noticeTypeSchema,
  objectId: z.string(),
  threshold: z.number().int(),
  text: z.string(),
  /** 'YYYY-MM-DD' (UTC): the day the job found it */
  foundOn: dayText,
});
export type Notice = z.infer<typeof noticeSchema>;

export const noticesResponseSchema = successOf(
  z.object({
    /** The account's notices of the last 30 days that this user receives, newest first */
    notices: z.array(noticeSchema),
    choices: noticeChoicesSchema,
    /** Types the account's administrators switched off */
    disabledTypes: z.array(noticeTypeSchema),
    /** Whether this user may switch types off for the account */
    canChangeTypes: z.boolean(),
  }),
);

export const setNoticeChoicesRequestSchema = noticeChoicesSchema.extend({
  customerNumber: customerNumberField,
});
export const setNoticeTypesRequestSchema = z.strictObject({
  customerNumber: customerNumberField,
  disabledTypes: z.array(noticeTypeSchema).max(noticeTypeSchema.options.length),
});
