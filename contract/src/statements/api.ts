import type { Operation } from '../common/operation.ts';
import {
  statementEmailRequestSchema,
  statementEmailResponseSchema,
  statementRequestSchema,
  statementResponseSchema,
} from './schemas.ts';

export const statementsApi: Operation[] = [
  {
    method: 'post',
    path: '/api/statements',
    summary: 'Summary statement of the elastic usage of an account for a period (from the daily rollups)',
    body: statementRequestSchema,
    response: statementResponseSchema,
  },
  {
    method: 'post',
    path: '/api/getPdf',
    summary:
      'The summary statement as a PDF (application/pdf, file "ElasticLicensingSummaryStatement {customer} {from} {to}.pdf")',
    body: statementRequestSchema,
  },
  {
    method: 'post',
    path: '/api/emailweek',
    summary:
      'E-mails the weekly statement (7 days through date) of one elastic entitlement to the requesting user',
    body: statementEmailRequestSchema,
    response: statementEmailResponseSchema,
  },
  {
    method: 'post',
    path: '/api/emailmonth',
    summary:
      'E-mails the monthly statement (one month through date) of one elastic entitlement to the requesting user',
    body: statementEmailRequestSchema,
    response: statementEmailResponseSchema,
  },
];
