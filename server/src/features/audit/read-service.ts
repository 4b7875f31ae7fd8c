import { type AuditColumn, type AuditRow, auditColumns } from '@lp/contract/audit/schemas';
import { messages } from '@lp/contract/common/errors';
import type { FilterRule, SortRule } from '@lp/contract/query/schemas';
import { formatDateTime } from '@lp/domain/dates';
import { mayReadAllAuditLogs, mayReadAuditLog } from '@lp/domain/policy';
import type { SQL } from 'drizzle-orm';
import type { AppContext } from '../../platform/context.ts';
import { badRequest, forbidden } from '../../platform/errors.ts';
import type { Principal } from '../../platform/principal.ts';
import { queryCount, queryDistinct, queryPage } from '../../platform/query/engine.ts';
import { authorizeAccount } from '../accounts/policy.ts';
import { accountScope, auditResource } from './resource.ts';

/**
 * The audit log's read side (issue 13 §1): pages, counts and distinct values through the query engine, for
 * an account or, for vendor staff, across accounts. The rule is @lp/domain/policy's, which the menu mirrors.
 */

interface AuditScope {
  /** Absent: every account (vendor staff only). */
  customerNumber?: string;
}

const isColumn = (name: string): name is AuditColumn => (auditColumns as string[]).includes(name);

/** The rows the principal may read, as a scope condition; 403 for anyone else (outsiders learn nothing). */
export async function authorizedScope(
  ctx: AppContext,
  principal: Principal,
  { customerNumber }: AuditScope,
): Promise<SQL | undefined> {
  if (customerNumber === undefined) {
    if (!mayReadAllAuditLogs(principal.vendorRoles)) throw forbidden();
    return undefined;
  }
  // Outsiders and unknown accounts get the same 403 here; export-blocked accounts the export text.
  const access = await authorizeAccount(ctx, principal, customerNumber, 'read');
  if (!mayReadAuditLog(principal.vendorRoles, access.customer.info)) throw forbidden(messages.noPermission);
  return accountScope(customerNumber);
}

/** Only the contract's columns may be sorted on (the resource's row-only columns are not). */
function auditSorting(sorting: readonly SortRule[] | undefined): SortRule[] | undefined {
  for (const rule of sorting ?? [])
    if (!isColumn(rule.name)) throw badRequest(`Unknown sort column '${rule.name.slice(0, 60)}'`);
  return sorting?.length ? [...sorting] : undefined;
}

const fields = (value: unknown) => (value ?? null) as Record<string, unknown> | null;

function present(row: Record<string, unknown>): AuditRow {
  return {
    id: row.entryId as number,
    time: formatDateTime(row.time as Date),
    account: (row.account as string | null) ?? null,
    actorKind: row.actorKind as AuditRow['actorKind'],
    actor: row.actor as string,
    action: row.action as string,
    objectType: row.objectType as string,
    objectId: row.objectId as string,
    requestId: (row.requestId as string | null) ?? null,
    clientRequestId: (row.clientRequestId as string | null) ?? null,
    clientIp: (row.clientIp as string | null) ?? null,
    before: fields(row.before),
    after: fields(row.after),
  };
}

export interface AuditPageRequest extends AuditScope {
  filter?: FilterRule;
  sorting?: SortRule[];
  offset?: number;
  token?: string | null;
  limit?: number;
}

export async function listAudit(ctx: AppContext, principal: Principal, request: AuditPageRequest) {
  const { customerNumber, sorting, ...pageRequest } = request;
  const scope = await authorizedScope(ctx, principal, { customerNumber });
  const page = await queryPage(ctx.db, auditResource, {
    scope,
    request: { ...pageRequest, sorting: auditSorting(sorting) },
    secret: ctx.secret,
  });
  return { rows: page.rows.map(present), token: page.token };
}

export async function countAudit(
  ctx: AppContext,
  principal: Principal,
  request: AuditScope & { filter?: FilterRule },
) {
  const scope = await authorizedScope(ctx, principal, request);
  return queryCount(ctx.db, auditResource, { scope, filter: request.filter });
}

export async function distinctAudit(
  ctx: AppContext,
  principal: Principal,
  request: AuditScope & { filter?: FilterRule; key: string; limit?: number },
) {
  const scope = await authorizedScope(ctx, principal, request);
  if (!isColumn(request.key)) throw badRequest(`Unknown column '${request.key.slice(0, 60)}'`);
  const values = await queryDistinct(ctx.db, auditResource, {
    scope,
    filter: request.filter,
    key: request.key,
    limit: request.limit,
  });
  return values.map((v) => (v instanceof Date ? formatDateTime(v) : v));
}
