import { z } from 'zod';
import { displayDateTimeText } from '../common/dates.ts';
import { successOf } from '../common/envelope.ts';
import { customerNumberField } from '../common/fields.ts';
import type { ColumnKinds } from '../query/schemas.ts';
import { countRequestSchema, distinctRequestSchema, pageRequestSchema } from '../query/schemas.ts';

const customerNumber = customerNumberField;

/** Columns of the e-mail list a client may filter, sort and ask distinct values of (spec 000 §3 list row). */
export const emailListColumns = ['id', 'date', 'subject', 'to'] as const;
export type EmailListColumn = (typeof emailListColumns)[number];

/** POST /api/getemails: {customerNumber} alone, or with the generic filter/sorting/offset/token/limit. */
export const getEmailsRequestSchema = pageRequestSchema.extend({ customerNumber });
export const emailsCountRequestSchema = countRequestSchema.extend({ customerNumber });
export const emailsDistinctRequestSchema = distinctRequestSchema.extend({ customerNumber });

/** Email list row; date as 'YYYY-MM-DD HH:mm:ss'. */
export const emailRowSchema = z.object({
  id: z.number().int(),
  date: displayDateTimeText,
  subject: z.string(),
  to: z.string(),
});
export type EmailRow = z.infer<typeof emailRowSchema>;

export const getEmailsResponseSchema = successOf(z.array(emailRowSchema), { token: z.string().nullable() });

/** POST /api/getemail. The id is accepted as a number or a numeric string (it comes from the URL). */
export const getEmailRequestSchema = z.strictObject({
  customerNumber,
  id: z.union([
    z.number().int().positive(),
    z
      .string()
      .regex(/^\d{1,15}$/)
      .transform(Number),
  ]),
});

/** Email detail; body is HTML already sanitised by the server. */
export const emailDetailSchema = z.object({
  customerNumber: z.string(),
  customerName: z.string(),
  to: z.string(),
  subject: z.string(),
  body: z.string(),
  date: displayDateTimeText,
  id: z.number().int(),
  /** The files sent with it, as sent (a license file, a statement), for the reader to open or save */
  attachments: z.array(
    z.object({
      fileName: z.string(),
      contentType: z.string(),
      /** bytes */
      size: z.number().int(),
      contentBase64: z.string(),
    }),
  ),
});
export type EmailDetail = z.infer<typeof emailDetailSchema>;

export const getEmailResponseSchema = successOf(emailDetailSchema);

/** DELETE /api/emails/{id}. */
export const emailIdParamsSchema = z.strictObject({
  id: z
    .string()
    .regex(/^\d{1,15}$/)
    .transform(Number),
});

/** Column kinds of the e-mails table (one declaration: the server's resource and the browser use it). */
export const emailColumnKinds = {
  id: 'number',
  date: 'timestamp',
  subject: 'text',
  to: 'text',
} as const satisfies ColumnKinds;
