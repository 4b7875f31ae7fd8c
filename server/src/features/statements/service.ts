import { messages } from '@lp/contract/common/errors';
import type { Statement, StatementEmailRequest, StatementRequest } from '@lp/contract/statements/schemas';
import { formatAmount } from '@lp/domain/amounts';
import { type DayRange, formatDate } from '@lp/domain/dates';
import { accountCurrency } from '@lp/domain/elastic-entitlements';
import {
  buildStatement,
  type StatementEmailKind,
  type StatementEntitlement,
  statementEmailPeriod,
  statementPdfFileName,
  statementPeriodProblem,
} from '@lp/domain/statement';
import type { Db } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { escapeHtml } from '../../platform/escape-html.ts';
import { sendUserEmail } from '../../platform/mail/user-mail.ts';
import type { Principal } from '../../platform/principal.ts';
import { lagTolerantRead } from '../../platform/read-routing.ts';
import { authorizeAccount } from '../accounts/policy.ts';
import { statementEntitlements } from '../entitlements/service.ts';
import { requireElasticServer } from '../ip-rules/service.ts';
import { renderStatementPdf } from './pdf.ts';
import { usageAggregates } from './repository.ts';

export const unknownElasticEntitlement = 'No elastic entitlement with this activation id for this account.';

async function composeStatement(
  db: Db,
  account: { customerNumber: string; customerName: string },
  period: DayRange,
  reportDate: string,
  only?: StatementEntitlement,
): Promise<Statement> {
  const all = await statementEntitlements.ofAccount(db, account.customerNumber);
  if (all.length === 0) throw new AppError('NOT_FOUND', messages.noActiveEntitlements);
  const entitlements = only ? [only] : all;
  const usage = await usageAggregates(db, account.customerNumber, period, only ? [only.id] : undefined);
  const { records, products } = buildStatement({
    period,
    entitlements,
    usage,
    defaultCurrency: accountCurrency(all),
  });
  return {
    Customer: {
      ReportDate: reportDate,
      AccountId: account.customerNumber,
      AccountName: account.customerName,
      PeriodStart: period.from,
      PeriodEnd: period.to,
    },
    Records: records,
    Products: products,
  };
}

/** POST /api/statements: the account's statement for [from, to], from the daily rollups and entitlements. */
export async function getStatement(
  ctx: AppContext,
  principal: Principal,
  request: StatementRequest,
): Promise<Statement> {
  const { customer } = await authorizeAccount(ctx, principal, request.customerNumber, 'read');
  const period = { from: request.from, to: request.to };
  const problem = statementPeriodProblem(period);
  if (problem) throw badRequest(problem);
  // A report that may be seconds old: from the replica when it may be used (decision 075).
  return lagTolerantRead(ctx, principal, (db) =>
    composeStatement(db, customer, period, request.today ?? formatDate(new Date())),
  );
}

/** POST /api/getPdf: the same statement as a PDF file. */
export async function getStatementPdf(
  ctx: AppContext,
  principal: Principal,
  request: StatementRequest,
): Promise<{ pdf: Buffer; fileName: string }> {
  const statement = await getStatement(ctx, principal, request);
  return {
    pdf: await renderStatementPdf(statement),
    fileName: statementPdfFileName(statement.Customer.AccountId, { from: request.from, to: request.to }),
  };
}

const kindTitle: Record<StatementEmailKind, string> = { week: 'Weekly', month: 'Monthly' };

/**
 * POST /api/emailweek and /api/emailmonth. Anyone who may write to the account (not view-only, decision 022) may
 * ask for a statement of one of its elastic entitlements; it goes to the asking user only (so nobody can mail
 * others), carries the statement PDF of that entitlement and is recorded in the account's e-mails through the outbox.
 */
export async function sendStatementEmail(
  ctx: AppContext,
  principal: Principal,
  kind: StatementEmailKind,
  request: StatementEmailRequest,
): Promise<void> {
  const { customer } = await authorizeAccount(ctx, principal, request.customerid, 'edit');
  // The request's `server` (spec 001) is the account's elastic license server.
  const elasticServerId = request.server;
  await requireElasticServer(ctx.db, customer.customerNumber, elasticServerId);
  const entitlement = await statementEntitlements.byActivationId(
    ctx.db,
    customer.customerNumber,
    request.activationid,
  );
  if (!entitlement) throw notFound(unknownElasticEntitlement);

  const now = new Date();
  const period = statementEmailPeriod(kind, new Date(request.date));
  // The mail is a write: its statement is read on the primary, with the audit entry it records.
  const statement = await composeStatement(ctx.db, customer, period, formatDate(now), entitlement);
  const pdf = await renderStatementPdf(statement);
  const title = kindTitle[kind];
  const record = statement.Records[0];
  const rows: [string, string][] = [
    ['Account', `${customer.customerNumber} (${customer.customerName})`],
    ['Elastic license server', elasticServerId],
    ['Entitlement', entitlement.activationId],
    ['PO', entitlement.poNumber ?? ''],
    ['Period', `${period.from} to ${period.to}`],
    ['Period Used', record ? `${formatAmount(record.Used)} ${record.Currency}` : '0'],
    ['Balance on Period End Date', record ? `${formatAmount(record.BalanceAtEnd)} ${record.Currency}` : ''],
  ];
  const html =
    `<p>${title} Statement of your elastic licensing usage.</p><table>` +
    rows
      .map(([k, v]) => `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`)
      .join('') +
    '</table><p>The summary statement is attached as a PDF.</p>';
  await ctx.db.transaction((tx) =>
    sendUserEmail(
      ctx,
      principal.userId,
      {
        customerNumber: customer.customerNumber,
        to: principal.email,
        subject: `${title} Statement ${entitlement.activationId} ${period.from} to ${period.to}`,
        html,
        attachments: [
          {
            filename: statementPdfFileName(customer.customerNumber, period),
            contentType: 'application/pdf',
            content: pdf,
          },
        ],
      },
      tx,
    ),
  );
}
