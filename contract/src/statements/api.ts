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
    auth: 'session',
    body: statementRequestSchema,
    response: statementResponseSchema,
  }),
  pdf: defineOperation({
    operationId: 'getStatementPdf',
    method: 'post',
    path: '/api/getPdf',
    summary:
      'The summary statement as a PDF (application/pdf, file "ElasticLicensingSummaryStatement {customer} {from} {to}.pdf")',
    auth: 'session',
    body: statementRequestSchema,
    produces: 'application/pdf',
  }),
  emailWeek: defineOperation({
    operationId: 'emailWeeklyStatement',
    method: 'post',
    path: '/api/emailweek',
    summary:
      'E-mails the weekly statement (7 days through date) of one elastic entitlement to the requesting user',
    auth: 'session',
    body: statementEmailRequestSchema,
    response: statementEmailResponseSchema,
  }),
  emailMonth: defineOperation({
    operationId: 'emailMonthlyStatement',
    method: 'post',
    path: '/api/emailmonth',
    summary:
      'E-mails the monthly statement (one month through date) of one elastic entitlement to the requesting user',
    auth: 'session',
    body: statementEmailRequestSchema,
    response: statementEmailResponseSchema,
  }),
} as const;
