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
  description:
    'E-mails the portal sent for the account (date, subject, recipients). The account is named by `customerNumber`; a user who may not see it gets 403, as for an unknown account.',
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
    description:
      'One sent e-mail with its body and the names and sizes of its attachments. The account is named by `customerNumber`; a user who may not see it gets 403, as for an unknown account.',
    auth: 'session',
    effect: 'read',
    statuses: {
      404: 'No e-mail with this id for this account.',
    },
    body: getEmailRequestSchema,
    response: getEmailResponseSchema,
  }),
  remove: defineOperation({
    operationId: 'deleteEmail',
    method: 'delete',
    path: '/api/emails/{id}',
    summary: 'Delete an e-mail record (vendor staff)',
    description: 'Deletes the record of a sent e-mail (not the message already delivered). Vendor staff.',
    auth: 'session',
    effect: 'idempotent',
    statuses: {
      404: 'No such e-mail, or one of an account the user may not see (answered alike).',
    },
    params: emailIdParamsSchema,
    response: okResponseSchema,
  }),
} as const;
