import { auditColumnKinds } from '@lp/contract/audit/schemas';
import { sql } from 'drizzle-orm';
import { type Resource, typedColumns } from '../../platform/query/resource.ts';

/**
 * Audit entries (issue 13 §1) for the generic query engine. The service scopes an account's log with
 * `e.customer_number = …`, which with the default sort (time, then id, descending) reads the index
 * audit_entries_customer_at; the cross-account view reads audit_entries_at.
 */
export const auditResource: Resource = {
  name: 'audit-entries',
  from: sql`audit_entries e`,
  columns: {
    ...typedColumns(auditColumnKinds, {
      time: { expr: sql`e.at` },
      account: { expr: sql`e.customer_number`, nullable: true },
      actorKind: { expr: sql`e.actor_kind` },
      actor: { expr: sql`e.actor_name` },
      action: { expr: sql`e.action` },
      objectType: { expr: sql`e.object_type` },
      objectId: { expr: sql`e.object_id` },
      requestId: { expr: sql`e.request_id`, nullable: true },
      clientIp: { expr: sql`e.client_ip`, nullable: true },
    }),
    // Carried with each row for the detail drawer; never filtered or sorted on.
    clientRequestId: {
      expr: sql`e.client_request_id`,
      type: 'text',
      nullable: true,
      filterable: false,
      sortable: false,
    },
    before: { expr: sql`e.before`, type: 'text', nullable: true, filterable: false, sortable: false },
    after: { expr: sql`e.after`, type: 'text', nullable: true, filterable: false, sortable: false },
    entryId: { expr: sql`e.id`, type: 'number', filterable: false, sortable: false },
  },
  id: { expr: sql`e.id`, type: 'number' },
  defaultSort: [{ name: 'time', direction: 'desc' }],
  // The CSV export of the filtered rows (contract AUDIT_EXPORT_MAX).
  maxLimit: 10_000,
  maxDistinct: 500,
};

export const accountScope = (customerNumber: string) => sql`e.customer_number = ${customerNumber}`;
