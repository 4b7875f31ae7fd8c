import type { EmailDetail, EmailRow } from '@lp/contract/emails/schemas';
import type { FilterRule, SortRule } from '@lp/contract/query/schemas';
import { formatDateTime } from '@lp/domain/dates';
import { mayRemoveEmails } from '@lp/domain/policy';
import type { AppContext } from '../../platform/context.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import type { StoredAttachment } from '../../platform/mail/mailer.ts';
import type { Principal } from '../../platform/principal.ts';
import { queryCount, queryDistinct, queryPage } from '../../platform/query/engine.ts';
import { authorizeAccount, authorizeAccountOf } from '../accounts/policy.ts';
import {
  customerScope,
  deleteEmail,
  emailsResource,
  findCustomerEmail,
  findEmailOwner,
} from './repository.ts';
import { sanitizeEmailHtml } from './sanitize.ts';

const toRow = (r: Record<string, unknown>): EmailRow => ({
  id: Number(r.id),
  date: formatDateTime(r.date as Date),
  subject: String(r.subject),
  to: String(r.to),
});

export async function listEmails(
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
  await authorizeAccount(ctx, principal, request.customerNumber, 'emails');
  const { customerNumber, ...pageRequest } = request;
  const page = await queryPage(ctx.db, emailsResource, {
    scope: customerScope(customerNumber),
    request: pageRequest,
    secret: ctx.secret,
  });
  return { rows: page.rows.map(toRow), token: page.token };
}

export async function countEmails(
  ctx: AppContext,
  principal: Principal,
  customerNumber: string,
  filter?: FilterRule,
) {
  await authorizeAccount(ctx, principal, customerNumber, 'emails');
  return queryCount(ctx.db, emailsResource, { scope: customerScope(customerNumber), filter });
}

export async function distinctEmailValues(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; filter?: FilterRule; key: string; limit?: number },
) {
  await authorizeAccount(ctx, principal, request.customerNumber, 'emails');
  const values = await queryDistinct(ctx.db, emailsResource, {
    scope: customerScope(request.customerNumber),
    filter: request.filter,
    key: request.key,
    limit: request.limit,
  });
  return values.map((v) => (v instanceof Date ? formatDateTime(v) : v));
}

/** One e-mail of the customer, body sanitised; another customer's e-mail is answered like an unknown id. */
export async function getEmail(
  ctx: AppContext,
  principal: Principal,
  customerNumber: string,
  id: number,
): Promise<EmailDetail> {
  await authorizeAccount(ctx, principal, customerNumber, 'emails');
  const row = await findCustomerEmail(ctx.db, customerNumber, id);
  if (!row) throw notFound('Email not found');
  return {
    customerNumber,
    customerName: row.customerName,
    to: row.to,
    subject: row.subject,
    body: sanitizeEmailHtml(row.body),
    date: formatDateTime(row.date),
    id: row.id,
    attachments: (row.attachments as StoredAttachment[]).map((a) => ({
      fileName: a.filename,
      contentType: a.contentType,
      size: Buffer.from(a.contentBase64, 'base64').length,
      contentBase64: a.contentBase64,
    })),
  };
}

export async function removeEmail(ctx: AppContext, principal: Principal, id: number): Promise<void> {
  if (!mayRemoveEmails(principal.vendorRoles)) throw forbidden();
  const unknown = notFound('Email not found');
  // The e-mail's account passes the gate the e-mail list passes (export-controlled accounts are refused); a delete is an account write, so view-only staff are refused too (decision 022).
  await authorizeAccountOf(ctx, principal, await findEmailOwner(ctx.db, id), 'edit', unknown);
  if (!(await deleteEmail(ctx.db, id))) throw unknown;
}
