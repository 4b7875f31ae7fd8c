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
    page: { body: auditPageRequestSchema, response: auditPageResponseSchema },
    count: { body: auditCountRequestSchema },
    distinct: { body: auditDistinctRequestSchema },
  }),
  checkpointStatus: defineOperation({
    operationId: 'auditCheckpointStatus',
    method: 'post',
    path: '/api/audit/checkpoint-status',
    summary: "The audit log's last signed checkpoint and whether the chains matched the checkpoint before it",
    auth: 'session',
    body: auditCheckpointStatusRequestSchema,
    response: successOf(auditCheckpointStatusSchema),
  }),
};
