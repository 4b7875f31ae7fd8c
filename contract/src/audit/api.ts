import { successOf } from '../common/envelope.ts';
import { defineOperation } from '../common/operation.ts';
import { queryOperations } from '../query/operations.ts';
import {
  auditCheckpointStatusRequestSchema,
  auditCheckpointStatusSchema,
  auditCountRequestSchema,
  auditDistinctRequestSchema,
  auditPageRequestSchema,
  auditPageResponseSchema,
} from './schemas.ts';

/**
 * The audit log (issue 13 §1): an account's entries for its administrators, support coordinators and vendor
 * staff, or every account's (no customerNumber) for vendor staff. Rows carry the before/after themselves.
 */
export const auditApi = {
  ...queryOperations({
    name: 'AuditEntries',
    path: '/api/audit',
    summary: 'Audit log entries of an account, or of every account for vendor staff',
    description:
      "Who changed what, when and from where, with the values before and after: an account's entries for its administrators, support coordinators and vendor staff (`customerNumber`), every account's for vendor staff (no `customerNumber`).",
    page: { body: auditPageRequestSchema, response: auditPageResponseSchema },
    count: { body: auditCountRequestSchema },
    distinct: { body: auditDistinctRequestSchema },
  }),
  checkpointStatus: defineOperation({
    operationId: 'auditCheckpointStatus',
    method: 'post',
    path: '/api/audit/checkpoint-status',
    summary: "The audit log's last signed checkpoint and whether the chains matched the checkpoint before it",
    description:
      "When the audit log was last checkpointed (each chain's head in a signed file) and whether the chains still matched the checkpoint before it. For an account's administrators, support coordinators and vendor staff.",
    auth: 'session',
    effect: 'read',
    body: auditCheckpointStatusRequestSchema,
    response: successOf(auditCheckpointStatusSchema),
  }),
};
