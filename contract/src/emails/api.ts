import { okResponseSchema } from '../common/envelope.ts';
import { defineOperation } from '../common/operation.ts';
import { queryOperations } from '../query/operations.ts';
import {
  emailIdParamsSchema,
  emailsCountRequestSchema,
  emailsDistinctRequestSchema,
  getEmailRequestSchema,
  getEmailResponseSchema,
  getEmailsRequestSchema,
  getEmailsResponseSchema,
} from './schemas.ts';

export const emailsQuery = queryOperations({
  name: 'Emails',
  path: '/api/getemails',
  summary: 'E-mails sent for an account',
  page: { body: getEmailsRequestSchema, response: getEmailsResponseSchema },
  count: { body: emailsCountRequestSchema },
  distinct: { body: emailsDistinctRequestSchema },
});

export const emailsApi = {
  ...emailsQuery,
  get: defineOperation({
    operationId: 'getEmail',
    method: 'post',
    path: '/api/getemail',
    summary: 'One e-mail of the account',
    auth: 'session',
    body: getEmailRequestSchema,
    response: getEmailResponseSchema,
  }),
  remove: defineOperation({
    operationId: 'deleteEmail',
    method: 'delete',
    path: '/api/emails/{id}',
    summary: 'Delete an e-mail record (vendor staff)',
    auth: 'session',
    params: emailIdParamsSchema,
    response: okResponseSchema,
  }),
} as const;
