import { z } from 'zod';
import { calendarDaySchema, dayOrEmptyText, dayText, zonedInstantSchema } from '../common/dates.ts';
import { okResponseSchema, successOf } from '../common/envelope.ts';
import { customerNumberField } from '../common/fields.ts';

const customerNumber = customerNumberField;
const day = calendarDaySchema;

/**
 * POST /api/emailweek and /api/emailmonth (spec 001 §7): send the weekly / monthly statement of one
 * elastic entitlement. `date` is an ISO date or date-time; the period is the one that ends on its day.
 */
export const statementEmailRequestSchema = z.strictObject({
  customerid: customerNumber,
  customername: z.string().max(500).optional(),
  /** The elastic license server id (clsId) of the account. */
  server: z.string().min(1).max(200),
  activationid: z.string().min(1).max(200),
  date: z.union([calendarDaySchema, zonedInstantSchema]),
});
export type StatementEmailRequest = z.infer<typeof statementEmailRequestSchema>;

export const statementEmailResponseSchema = okResponseSchema;

/** POST /api/statements and /api/getPdf: the period [from, to] as days (spec 001 §3 statement request). */
export const statementRequestSchema = z.strictObject({
  from: day,
  to: day,
  /** The client's "today" (report date); the server uses its own clock when absent. */
  today: calendarDaySchema.optional(),
  customerNumber,
  customerName: z.string().max(500).optional(),
});
export type StatementRequest = z.infer<typeof statementRequestSchema>;

export const statementProductSchema = z.object({
  product: z.string(),
  total: z.number(),
  currency: z.string(),
});
export type StatementProduct = z.infer<typeof statementProductSchema>;

/** One row of "Usage by Purchase Order": an elastic entitlement (or the uncovered usage, see docs). */
export const statementRecordSchema = z.object({
  PONumber: z.string(),
  ActivationId: z.string(),
  StartDate: dayText,
  /** '' for an entitlement without an end */
  EndDate: dayOrEmptyText,
  BalanceBeforeStart: z.number(),
  BalanceAtEnd: z.number(),
  /** Period used (units drawn within [from, to]). */
  Used: z.number(),
  Currency: z.string(),
  LineItemQuantity: z.number(),
  /** Units drawn since the entitlement began, through the period end. */
  TotalUsed: z.number(),
  Products: z.array(statementProductSchema),
});
export type StatementRecord = z.infer<typeof statementRecordSchema>;

export const statementSchema = z.object({
  Customer: z.object({
    ReportDate: dayText,
    AccountId: z.string(),
    AccountName: z.string(),
    PeriodStart: dayText,
    PeriodEnd: dayText,
  }),
  Records: z.array(statementRecordSchema),
  Products: z.array(statementProductSchema),
});
export type Statement = z.infer<typeof statementSchema>;

export const statementResponseSchema = successOf(statementSchema);
