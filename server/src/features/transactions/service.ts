import type { FilterRule, SortRule } from '@lp/contract/query/schemas';
import {
  type UsageAttribute,
  type UsageColumn,
  type UsageRow,
  usageAttributes,
  usageColumns,
} from '@lp/contract/transactions/schemas';
import { formatDateTime } from '@lp/domain/dates';
import type { AppContext } from '../../platform/context.ts';
import { badRequest } from '../../platform/errors.ts';
import type { Principal } from '../../platform/principal.ts';
import { queryCount, queryDistinct, queryPage } from '../../platform/query/engine.ts';
import { authorizeAccount } from '../accounts/policy.ts';
import { accountScope, END_TIME_ORDER, usageSessionsResource } from './resource.ts';

interface UsageScope {
  customerNumber: string;
  serverId?: string | null;
}

const isColumn = (name: string): name is UsageColumn => (usageColumns as readonly string[]).includes(name);

/**
 * The client's sort, then StartTime and EndTime ascending as tie-breakers (spec 001 §2.3). Only the spec's
 * columns may be named; EndTime sorts through its token-safe key (resource.ts).
 */
export function usageSorting(sorting: readonly SortRule[] | undefined): SortRule[] {
  const rules = [
    ...(sorting ?? []),
    { name: 'StartTime', direction: 'asc' as const },
    { name: 'EndTime', direction: 'asc' as const },
  ];
  return rules.map((rule) => {
    if (!isColumn(rule.name)) throw badRequest(`Unknown sort column '${rule.name.slice(0, 60)}'`);
    return rule.name === 'EndTime' ? { ...rule, name: END_TIME_ORDER } : rule;
  });
}

const instant = (value: unknown) => (value instanceof Date ? value : null);

/** A row as the API answers it: spec attribute names, instants as 'YYYY-MM-DD HH:mm:ss' and epoch ms. */
function present(row: Record<string, unknown>, attributes: readonly UsageAttribute[]): UsageRow {
  const start = instant(row.StartTime);
  const end = instant(row.EndTime);
  const all: Record<UsageAttribute, unknown> = {
    ...(Object.fromEntries(usageColumns.map((c) => [c, row[c] ?? null])) as Record<UsageColumn, unknown>),
    StartTime: start ? formatDateTime(start) : null,
    EndTime: end ? formatDateTime(end) : null,
    StartTime_ts: start ? start.getTime() : null,
    EndTime_ts: end ? end.getTime() : null,
  };
  return Object.fromEntries(attributes.map((a) => [a, all[a]])) as UsageRow;
}

export async function listUsage(
  ctx: AppContext,
  principal: Principal,
  request: UsageScope & {
    attributes?: UsageAttribute[];
    filter?: FilterRule;
    sorting?: SortRule[];
    offset?: number;
    token?: string | null;
    limit?: number;
  },
) {
  await authorizeAccount(ctx, principal, request.customerNumber, 'read');
  const { customerNumber, serverId, attributes, sorting, ...pageRequest } = request;
  const page = await queryPage(ctx.db, usageSessionsResource, {
    scope: accountScope(customerNumber, serverId),
    request: { ...pageRequest, sorting: usageSorting(sorting) },
    secret: ctx.secret,
  });
  const wanted = attributes?.length ? attributes : usageAttributes;
  return { rows: page.rows.map((r) => present(r, wanted)), token: page.token };
}

export async function countUsage(
  ctx: AppContext,
  principal: Principal,
  request: UsageScope & { filter?: FilterRule },
) {
  await authorizeAccount(ctx, principal, request.customerNumber, 'read');
  return queryCount(ctx.db, usageSessionsResource, {
    scope: accountScope(request.customerNumber, request.serverId),
    filter: request.filter,
  });
}

export async function distinctUsage(
  ctx: AppContext,
  principal: Principal,
  request: UsageScope & { filter?: FilterRule; key: string; limit?: number },
) {
  await authorizeAccount(ctx, principal, request.customerNumber, 'read');
  if (!isColumn(request.key)) throw badRequest(`Unknown column '${request.key.slice(0, 60)}'`);
  const values = await queryDistinct(ctx.db, usageSessionsResource, {
    scope: accountScope(request.customerNumber, request.serverId),
    filter: request.filter,
    key: request.key,
    limit: request.limit,
  });
  return values.map((v) => (v instanceof Date ? formatDateTime(v) : v));
}
