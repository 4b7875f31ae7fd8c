import type { FilterRule, SortRule } from '@lp/contract/query/schemas';
import {
  type UsageAttribute,
  type UsageColumn,
  type UsageRow,
  usageAttributes,
  usageColumns,
} from '@lp/contract/transactions/schemas';
import { formatDateTime } from '@lp/domain/dates';
import { usageSortWithTieBreakers } from '@lp/domain/usage-sort';
import type { SQL } from 'drizzle-orm';
import type { AppContext } from '../../platform/context.ts';
import { badRequest } from '../../platform/errors.ts';
import type { Principal } from '../../platform/principal.ts';
import { queryCount, queryDistinct, queryPage, streamPage } from '../../platform/query/engine.ts';
import { lagTolerantRead, lagTolerantStream } from '../../platform/read-routing.ts';
import { authorizeAccount } from '../accounts/policy.ts';
import { countStartsIn, productsStartedIn, startTimeWindow, usersStartedIn } from './repository.ts';
import { accountScope, END_TIME_ORDER, usageSessionsResource } from './resource.ts';

/** An account's usage, or one of its elastic license servers' (the wire's serverId, mapped in routes.ts). */
interface UsageScope {
  customerNumber: string;
  elasticServerId?: string | null;
}

const isColumn = (name: string): name is UsageColumn => (usageColumns as readonly string[]).includes(name);

/**
 * The client's sort, then StartTime and EndTime ascending as tie-breakers (spec 001 §2.3), added here too
 * for clients that send none. Only the spec's columns may be named; EndTime sorts through its token-safe
 * key (resource.ts).
 */
export function usageSorting(sorting: readonly SortRule[] | undefined): SortRule[] {
  return usageSortWithTieBreakers(sorting).map((rule) => {
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

type UsagePageRequest = UsageScope & {
  attributes?: UsageAttribute[];
  filter?: FilterRule;
  sorting?: SortRule[];
  offset?: number;
  token?: string | null;
  limit?: number;
};

/** Pages above the usage query's maximum size (spec 001 §9: 1000), i.e. the CSV export, are streamed. */
export const LARGE_USAGE_PAGE = 1000;
/** Rows read from the database cursor and written to the response at a time. */
const STREAM_CHUNK_ROWS = 1000;

function usagePageOptions(ctx: AppContext, request: UsagePageRequest) {
  const { customerNumber, elasticServerId, attributes, sorting, ...pageRequest } = request;
  return {
    options: {
      scope: accountScope(customerNumber, elasticServerId),
      request: { ...pageRequest, sorting: usageSorting(sorting) },
      secret: ctx.secret,
    },
    wanted: attributes?.length ? attributes : usageAttributes,
  };
}

export async function listUsage(ctx: AppContext, principal: Principal, request: UsagePageRequest) {
  await authorizeAccount(ctx, principal, request.customerNumber, 'read');
  const { options, wanted } = usagePageOptions(ctx, request);
  const page = await lagTolerantRead(ctx, principal, (db) => queryPage(db, usageSessionsResource, options));
  return { rows: page.rows.map((r) => present(r, wanted)), token: page.token };
}

/** listUsage for large pages: the same rows and token, yielded in chunks from a database cursor (decision 021). */
export async function* streamUsage(
  ctx: AppContext,
  principal: Principal,
  request: UsagePageRequest,
): AsyncGenerator<UsageRow[], string | null> {
  await authorizeAccount(ctx, principal, request.customerNumber, 'read');
  const { options, wanted } = usagePageOptions(ctx, request);
  const chunks = lagTolerantStream(ctx, principal, (database) =>
    streamPage(database, usageSessionsResource, { ...options, chunkSize: STREAM_CHUNK_ROWS }),
  );
  try {
    for (;;) {
      const step = await chunks.next();
      if (step.done) return step.value;
      yield step.value.map((r) => present(r, wanted));
    }
  } finally {
    await chunks.return(null);
  }
}

export async function countUsage(
  ctx: AppContext,
  principal: Principal,
  request: UsageScope & { filter?: FilterRule },
) {
  await authorizeAccount(ctx, principal, request.customerNumber, 'read');
  // A filter of session starts alone (the page's date range) is counted from the daily counts (decision 076).
  const window = startTimeWindow(request.filter);
  return lagTolerantRead(ctx, principal, (db) =>
    window
      ? countStartsIn(db, request.customerNumber, request.elasticServerId, window)
      : queryCount(db, usageSessionsResource, {
          scope: accountScope(request.customerNumber, request.elasticServerId),
          filter: request.filter,
        }),
  );
}

/**
 * The values of User and Product over a filter that is only a StartTime range (the values dialog of the page's
 * period) without reading every session in it (decision 077); null for any other request.
 */
function fasterDistinct(
  request: UsageScope & { filter?: FilterRule; key: string },
  rows: number,
): SQL | null {
  const window = startTimeWindow(request.filter);
  if (!window) return null;
  if (request.key === 'Product')
    return productsStartedIn(request.customerNumber, request.elasticServerId, window, rows);
  // The index names no license server: a server's users are read by the engine.
  if (request.key === 'User' && !request.elasticServerId)
    return usersStartedIn(request.customerNumber, window, rows);
  return null;
}

export async function distinctUsage(
  ctx: AppContext,
  principal: Principal,
  request: UsageScope & { filter?: FilterRule; key: string; limit?: number },
) {
  await authorizeAccount(ctx, principal, request.customerNumber, 'read');
  if (!isColumn(request.key)) throw badRequest(`Unknown column '${request.key.slice(0, 60)}'`);
  const values = await lagTolerantRead(ctx, principal, (db) =>
    queryDistinct(db, usageSessionsResource, {
      scope: accountScope(request.customerNumber, request.elasticServerId),
      filter: request.filter,
      key: request.key,
      limit: request.limit,
      faster: (rows) => fasterDistinct(request, rows),
    }),
  );
  return values.map((v) => (v instanceof Date ? formatDateTime(v) : v));
}
