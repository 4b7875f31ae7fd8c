import { defineOperation } from '../common/operation.ts';
import {
  statementEmailRequestSchema,
  statementEmailResponseSchema,
  statementRequestSchema,
  statementResponseSchema,
} from './schemas.ts';

export const statementsApi = {
  statement: defineOperation({
    operationId: 'getStatement',
    method: 'post',
    path: '/api/statements',
    summary: 'Summary statement of the elastic usage of an account for a period (from the daily rollups)',
    description:
      "The summary statement of the account's elastic usage for a period (from the daily rollups): per entitlement, usage, overage and balance. The account is named by `customerNumber`; a user who may not see it gets 403, as for an unknown account.",
    auth: 'session',
    effect: 'read',
    statuses: {
      404: 'The account has no active elastic entitlements.',
    },
    body: statementRequestSchema,
    response: statementResponseSchema,
  }),
  pdf: defineOperation({
    operationId: 'getStatementPdf',
    method: 'post',
    path: '/api/getPdf',
    summary:
      'The summary statement as a PDF (application/pdf, file "ElasticLicensingSummaryStatement {customer} {from} {to}.pdf")',
    description: 'The same statement as a PDF file (`application/pdf`), as the statement page exports it.',
    auth: 'session',
    effect: 'read',
    statuses: {
      404: 'The account has no active elastic entitlements.',
    },
    body: statementRequestSchema,
    produces: 'application/pdf',
  }),
  emailWeek: defineOperation({
    operationId: 'emailWeeklyStatement',
    method: 'post',
    path: '/api/emailweek',
    summary:
      'E-mails the weekly statement (7 days through date) of one elastic entitlement to the requesting user',
    description:
      'E-mails the statement of one elastic entitlement for the 7 days through `date` to the requesting user, through the outbox. Limited per user and per account per hour.',
    auth: 'session',
    effect: 'keyed',
    statuses: {
      404: 'The server or the elastic entitlement is not one of the account.',
      429: 'The user or the account has sent as many e-mails as allowed in the last hour.',
    },
    body: statementEmailRequestSchema,
    response: statementEmailResponseSchema,
  }),
  emailMonth: defineOperation({
    operationId: 'emailMonthlyStatement',
    method: 'post',
    path: '/api/emailmonth',
    summary:
      'E-mails the monthly statement (one month through date) of one elastic entitlement to the requesting user',
    description:
      'E-mails the statement of one elastic entitlement for the month through `date` to the requesting user, through the outbox. Limited per user and per account per hour.',
    auth: 'session',
    effect: 'keyed',
    statuses: {
      404: 'The server or the elastic entitlement is not one of the account.',
      429: 'The user or the account has sent as many e-mails as allowed in the last hour.',
    },
    body: statementEmailRequestSchema,
    response: statementEmailResponseSchema,
  }),
} as const;
