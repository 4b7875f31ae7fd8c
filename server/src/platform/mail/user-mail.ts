import { messages } from '@lp/contract/common/errors';
import { and, count, eq, gt, isNotNull, type SQL } from 'drizzle-orm';
import { type Db, lockUntilCommit } from '../../db/database.ts';
import { emails } from '../../db/schema.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { type AccountEmail, type DeliveryStatus, sendAccountEmail } from './mailer.ts';

const HOUR_MS = 3_600_000;

/**
 * Queues an e-mail a user asked for (a statement, a license file) in the caller's transaction, within the
 * hourly limits per user and per account (decision 045): past either, 429 with the catalogue's text and nothing
 * is queued. The count is of the outbox rows themselves (`requested_by`), under one lock per user and one per
 * account held until commit, so API nodes sending at the same moment cannot both take the last place.
 */
export async function sendUserEmail(
  ctx: Pick<AppContext, 'db' | 'config' | 'log'>,
  userId: string,
  message: AccountEmail & { customerNumber: string },
  tx: Db,
): Promise<{ id: number; deliveryStatus: DeliveryStatus }> {
  const { MAIL_USER_LIMIT_PER_HOUR: perUser, MAIL_ACCOUNT_LIMIT_PER_HOUR: perAccount } = ctx.config;
  // Always user first, then account: two senders never wait on each other's second lock.
  await lockUntilCommit(tx, `user-mail:user:${userId}`);
  await lockUntilCommit(tx, `user-mail:account:${message.customerNumber}`);
  const since = new Date(Date.now() - HOUR_MS);
  const recent = and(isNotNull(emails.requestedBy), gt(emails.date, since));
  const sent = async (which: SQL | undefined) =>
    (await tx.select({ n: count() }).from(emails).where(and(recent, which)))[0].n;
  const byUser = await sent(eq(emails.requestedBy, userId));
  const byAccount = await sent(eq(emails.customerNumber, message.customerNumber));
  if (byUser >= perUser) throw new AppError('RATE_LIMITED', messages.userMailLimit(perUser));
  if (byAccount >= perAccount) throw new AppError('RATE_LIMITED', messages.accountMailLimit(perAccount));
  return sendAccountEmail(ctx, { ...message, requestedBy: userId }, tx);
}
