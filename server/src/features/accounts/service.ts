import type { AccountRow } from '@lp/contract/accounts/schemas';
import { messages } from '@lp/contract/common/errors';
import type { FilterRule } from '@lp/contract/query/schemas';
import { isVendorStaff } from '@lp/domain/policy';
import type { SQL } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import { badRequest, forbidden } from '../../platform/errors.ts';
import type { Principal } from '../../platform/principal.ts';
import { queryCount, queryDistinct, queryPage } from '../../platform/query/engine.ts';
import { accountsResource, contactScope, lastUsageEvent, listAdministrators } from './repository.ts';

const accountFilterColumns = new Set(['AccountName', 'AccountID']);
const accountFilterMethods = new Set(['CONTAINS', 'EQUALS', 'STARTSWITH']);

/** The account filter accepts only ID/name criteria with text (spec 000 §5); anything else is invalid filter text. */
function checkAccountFilter(filter: FilterRule | undefined): FilterRule | undefined {
  if (!filter) return undefined;
  for (const c of filter.criteria) {
    const text = typeof c.value === 'string' ? c.value.trim() : '';
    if (!accountFilterColumns.has(c.name) || !accountFilterMethods.has(c.method) || !text) {
      throw badRequest(messages.invalidAccountFilter);
    }
  }
  return filter;
}

/**
 * Which accounts a principal may list: vendor staff every account (or those of `customerEmail` when given),
 * customer users only accounts naming them as a portal-access contact.
 */
function visibleScope(principal: Principal, customerEmail?: string): SQL | undefined {
  const email = customerEmail?.trim().toLowerCase();
  if (isVendorStaff(principal.vendorRoles)) return email ? contactScope(email) : undefined;
  if (email && email !== principal.email) throw forbidden();
  return contactScope(principal.email);
}

const toRow = (r: Record<string, unknown>): AccountRow => ({
  AccountName: String(r.AccountName),
  AccountID: String(r.AccountID),
});

export async function listAccounts(
  ctx: AppContext,
  principal: Principal,
  request: {
    filter?: FilterRule;
    offset?: number;
    token?: string | null;
    limit?: number;
    customerEmail?: string;
  },
) {
  const filter = checkAccountFilter(request.filter);
  const limit = Math.min(request.limit ?? ctx.config.ACCOUNT_LIST_MAX, ctx.config.ACCOUNT_LIST_MAX);
  const page = await queryPage(ctx.db, accountsResource, {
    scope: visibleScope(principal, request.customerEmail),
    request: { filter, offset: request.offset, token: request.token, limit },
    secret: ctx.secret,
  });
  return { rows: page.rows.map(toRow), token: page.token };
}

export async function countAccounts(ctx: AppContext, principal: Principal, filter?: FilterRule) {
  return queryCount(ctx.db, accountsResource, {
    scope: visibleScope(principal),
    filter: checkAccountFilter(filter),
  });
}

export async function distinctAccounts(
  ctx: AppContext,
  principal: Principal,
  filter: FilterRule | undefined,
  key: string,
) {
  return queryDistinct(ctx.db, accountsResource, {
    scope: visibleScope(principal),
    filter: checkAccountFilter(filter),
    key,
    limit: ctx.config.ACCOUNT_LIST_MAX,
  });
}

export async function lastUpdatedOn(ctx: AppContext, principal: Principal, customerNumber?: string) {
  if (customerNumber) return lastUsageEvent(ctx.db, { customerNumber });
  if (isVendorStaff(principal.vendorRoles)) return lastUsageEvent(ctx.db, {});
  return lastUsageEvent(ctx.db, { contactEmail: principal.email });
}

/** Every account's administrators (portal administrators and support coordinators): who gets account notices. */
export async function accountAdministrators(db: Db): Promise<Map<string, string[]>> {
  const byAccount = new Map<string, string[]>();
  for (const { customerNumber, email } of await listAdministrators(db))
    byAccount.set(customerNumber, [...(byAccount.get(customerNumber) ?? []), email]);
  return byAccount;
}
