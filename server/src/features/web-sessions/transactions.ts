import type { FilterRule, SortRule } from '@lp/contract/query/schemas';
import { type WebTransactionRow, webTransactionColumns } from '@lp/contract/web-sessions/schemas';
import { formatDateTime } from '@lp/domain/dates';
import type { AppContext } from '../../platform/context.ts';
import type { Principal } from '../../platform/principal.ts';
import { queryCount, queryDistinct, queryPage } from '../../platform/query/engine.ts';
import { lagTolerantRead } from '../../platform/read-routing.ts';
import { authorizeAccount } from '../accounts/policy.ts';
import { latestLeaseEvent } from './repository.ts';
import { transactionsScope, webTransactionsResource } from './transactions-resource.ts';

/* /web-transactions (decision 071): the account's leases and denials through the generic query engine. */

const asText = (value: unknown) => (value instanceof Date ? formatDateTime(value) : null);

function present(row: Record<string, unknown>): WebTransactionRow {
  return {
    ...(Object.fromEntries(webTransactionColumns.map((c) => [c, row[c] ?? ''])) as WebTransactionRow),
    Start: asText(row.Start) ?? '',
    End: asText(row.End),
    Duration: row.Duration === null || row.Duration === undefined ? null : Number(row.Duration),
  };
}

export async function listWebTransactions(
  ctx: AppContext,
  principal: Principal,
  request: {
    customerNumber: string;
    filter?: FilterRule;
    sorting?: SortRule[];
    offset?: number;
    token?: string | null;
    limit?: number;
  },
) {
  const { customerNumber, ...pageRequest } = request;
  await authorizeAccount(ctx, principal, customerNumber, 'read');
  const page = await lagTolerantRead(ctx, principal, (db) =>
    queryPage(db, webTransactionsResource, {
      scope: transactionsScope(customerNumber),
      request: pageRequest,
      secret: ctx.secret,
    }),
  );
  return { rows: page.rows.map(present), token: page.token };
}

export async function countWebTransactions(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; filter?: FilterRule },
) {
  await authorizeAccount(ctx, principal, request.customerNumber, 'read');
  return lagTolerantRead(ctx, principal, (db) =>
    queryCount(db, webTransactionsResource, {
      scope: transactionsScope(request.customerNumber),
      filter: request.filter,
    }),
  );
}

export async function distinctWebTransactions(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; filter?: FilterRule; key: string; limit?: number },
) {
  await authorizeAccount(ctx, principal, request.customerNumber, 'read');
  const values = await lagTolerantRead(ctx, principal, (db) =>
    queryDistinct(db, webTransactionsResource, {
      scope: transactionsScope(request.customerNumber),
      filter: request.filter,
      key: request.key,
      limit: request.limit,
    }),
  );
  return values.map((v) => (v instanceof Date ? formatDateTime(v) : v));
}

/** The page's "Data as of": the account's latest lease start or end. */
export async function webTransactionsAsOf(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string },
) {
  await authorizeAccount(ctx, principal, request.customerNumber, 'read');
  // The same server as the grid beside it, so "Data as of" tells the age of the rows shown.
  const at = await lagTolerantRead(ctx, principal, (db) => latestLeaseEvent(db, request.customerNumber));
  return { asOf: at ? formatDateTime(at) : null };
}
