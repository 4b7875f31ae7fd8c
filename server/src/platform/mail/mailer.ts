import { type SQL, sql } from 'drizzle-orm';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import { type Db, queryRows } from '../../db/database.ts';
import { emails } from '../../db/schema.ts';
import type { AppContext } from '../context.ts';
import { absoluteLinks, automaticHeaders, mailHtml, mailText } from './compose.ts';

/*
 * The outbox of the portal's account e-mails (issue 3 §4). Every message is first a row of table emails,
 * written in the caller's transaction when one is given, so a message exists exactly when the change that
 * caused it is committed. Without SMTP_URL the row is only recorded and logged ('recorded'). With SMTP_URL
 * it is 'pending' and the delivery worker sends it; failures are retried with back-off and end as 'failed'
 * after MAIL_MAX_ATTEMPTS: the row (and the message in it) is never lost.
 *
 * Several API nodes may run the worker at once. A worker claims due rows in one statement
 * (UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED) RETURNING) that also pushes next_attempt_at
 * out by a lease, then sends outside any transaction: a claimed row is invisible to other workers until
 * the lease runs out, which only happens when the claiming node died mid-send. Sending with no open
 * transaction keeps a slow SMTP server from holding database connections (and PGlite's single one).
 */

/** An attachment given as raw bytes / text (`content`, text stored as UTF-8) or already base64-encoded. */
export type MailAttachment = { filename: string; contentType: string } & (
  | { content: Buffer | string; contentBase64?: never }
  | { contentBase64: string; content?: never }
);

export interface AccountEmail {
  /** Null for a vendor-wide message (the audit checkpoints' copy), which no account's page lists */
  customerNumber: string | null;
  /** One address, a comma-separated list, or a list. */
  to: string | string[];
  cc?: string | string[];
  subject: string;
  /**
   * HTML body, kept as written with its links made absolute (PUBLIC_URL); the e-mail pages sanitise it when
   * showing it, and the plain-text part is made from it when it is sent (decision 060).
   */
  html: string;
  attachments?: MailAttachment[];
  /** Header fields beyond the ones every message gets (`List-Unsubscribe` of the notice digests). */
  headers?: Record<string, string>;
}

/** Stored form of an attachment (column emails.attachments). */
export interface StoredAttachment {
  filename: string;
  contentType: string;
  contentBase64: string;
}

export type DeliveryStatus = 'recorded' | 'pending' | 'sent' | 'failed';

type MailContext = Pick<AppContext, 'db' | 'config' | 'log'>;

const addressList = (value: string | string[] | undefined): string =>
  (Array.isArray(value) ? value : (value ?? '').split(','))
    .map((a) => a.trim())
    .filter(Boolean)
    .join(', ');

/**
 * Records an e-mail of an account and, when SMTP is configured, queues it for delivery.
 * Pass `tx` to write it inside the caller's transaction (it is then sent only if that commits).
 */
export async function sendAccountEmail(
  ctx: MailContext,
  message: AccountEmail & { requestedBy?: string },
  tx?: Db,
): Promise<{ id: number; deliveryStatus: DeliveryStatus }> {
  const to = addressList(message.to);
  if (!to) throw new Error('sendAccountEmail: no recipient');
  const attachments: StoredAttachment[] = (message.attachments ?? []).map((a) => ({
    filename: a.filename,
    contentType: a.contentType,
    contentBase64:
      a.contentBase64 ??
      (typeof a.content === 'string' ? Buffer.from(a.content, 'utf8') : a.content).toString('base64'),
  }));
  const deliver = Boolean(ctx.config.SMTP_URL);
  const [row] = await (tx ?? ctx.db)
    .insert(emails)
    .values({
      customerNumber: message.customerNumber,
      to,
      cc: addressList(message.cc),
      subject: message.subject,
      body: absoluteLinks(message.html, ctx.config.publicUrl),
      attachments,
      headers: message.headers ?? {},
      deliveryStatus: deliver ? 'pending' : 'recorded',
      nextAttemptAt: deliver ? sql`now()` : null,
      requestedBy: message.requestedBy ?? null,
    })
    .returning({ id: emails.id });
  if (!deliver) {
    ctx.log.info(
      { emailId: row.id, customerNumber: message.customerNumber, to, subject: message.subject },
      'e-mail recorded (SMTP_URL not set: not sent)',
    );
  }
  return { id: row.id, deliveryStatus: deliver ? 'pending' : 'recorded' };
}

/** The part of a nodemailer transport the worker uses; tests may pass their own. */
export interface MailTransport {
  sendMail(mail: SendMailOptions): Promise<unknown>;
  close?(): void;
}

export interface MailWorkerOptions {
  /** How often the worker looks for due messages. */
  pollIntervalMs?: number;
  /** Messages claimed per round. */
  batchSize?: number;
  /** First retry delay; doubled per failed attempt up to maxRetryDelayMs. */
  retryBaseMs?: number;
  maxRetryDelayMs?: number;
  /** How long a claimed message stays invisible to other workers; longer than any send can take. */
  leaseMs?: number;
  transport?: MailTransport;
}

const defaults = {
  pollIntervalMs: 5_000,
  batchSize: 10,
  retryBaseMs: 30_000,
  maxRetryDelayMs: 3_600_000,
  leaseMs: 600_000,
};

/** Socket timeouts well below the lease, so a hung server cannot make a claim expire mid-send. */
const smtpTimeouts = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 };

export function createSmtpTransport(url: string): MailTransport {
  const transport = nodemailer.createTransport({ url, ...smtpTimeouts });
  return transport as unknown as MailTransport;
}

interface ClaimedRow {
  id: number | string;
  to_address: string;
  cc_address: string;
  subject: string;
  body: string;
  attachments: StoredAttachment[] | string;
  headers: Record<string, string> | string;
  attempts: number;
}

export const retryDelayMs = (attempt: number, base: number, max: number) =>
  Math.min(max, base * 2 ** Math.max(0, attempt - 1));

async function claimDue(db: Db, batchSize: number, leaseMs: number): Promise<ClaimedRow[]> {
  const lease: SQL = sql`now() + ${`${leaseMs} milliseconds`}::interval`;
  return queryRows<ClaimedRow>(
    db,
    sql`update emails set next_attempt_at = ${lease}
        where id in (
          select id from emails
          where delivery_status = 'pending' and next_attempt_at <= now()
          order by next_attempt_at, id
          limit ${batchSize}
          for update skip locked)
        returning id, to_address, cc_address, subject, body, attachments, headers, attempts`,
  );
}

const fromJson = <T>(value: T | string | null, empty: T): T =>
  typeof value === 'string' ? (JSON.parse(value) as T) : (value ?? empty);

/** The message as it is sent: the stored HTML as a document, its plain-text part and the header fields. */
function toMail(from: string, row: ClaimedRow): SendMailOptions {
  const attachments = fromJson<StoredAttachment[]>(row.attachments, []);
  return {
    from,
    to: row.to_address,
    cc: row.cc_address || undefined,
    subject: row.subject,
    headers: { ...automaticHeaders, ...fromJson<Record<string, string>>(row.headers, {}) },
    text: mailText(row.body),
    html: mailHtml(row.subject, row.body),
    attachments: attachments.map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      content: Buffer.from(a.contentBase64, 'base64'),
    })),
  };
}

/**
 * One round of the worker: claims due messages and tries each once. Returns what happened, for tests
 * and logs. Safe to run on several nodes at once.
 */
export async function deliverDueEmails(
  ctx: MailContext,
  transport: MailTransport,
  options: MailWorkerOptions = {},
): Promise<{ sent: number; retried: number; failed: number }> {
  const o = { ...defaults, ...options };
  const maxAttempts = ctx.config.MAIL_MAX_ATTEMPTS;
  const claimed = await claimDue(ctx.db, o.batchSize, o.leaseMs);
  const result = { sent: 0, retried: 0, failed: 0 };
  for (const row of claimed) {
    const id = Number(row.id);
    const attempt = row.attempts + 1;
    try {
      await transport.sendMail(toMail(ctx.config.MAIL_FROM, row));
      await ctx.db.execute(
        sql`update emails set delivery_status = 'sent', attempts = ${attempt}, sent_at = now(),
            next_attempt_at = null, last_error = null where id = ${id}`,
      );
      result.sent++;
    } catch (e) {
      const error = (e instanceof Error ? e.message : String(e)).slice(0, 1000);
      if (attempt >= maxAttempts) {
        await ctx.db.execute(
          sql`update emails set delivery_status = 'failed', attempts = ${attempt}, last_error = ${error},
              next_attempt_at = null where id = ${id}`,
        );
        ctx.log.error({ emailId: id, attempts: attempt, err: error }, 'e-mail delivery failed: giving up');
        result.failed++;
      } else {
        const delay = retryDelayMs(attempt, o.retryBaseMs, o.maxRetryDelayMs);
        await ctx.db.execute(
          sql`update emails set attempts = ${attempt}, last_error = ${error},
              next_attempt_at = now() + ${`${delay} milliseconds`}::interval where id = ${id}`,
        );
        ctx.log.warn({ emailId: id, attempts: attempt, err: error }, 'e-mail delivery failed: will retry');
        result.retried++;
      }
    }
  }
  return result;
}

/**
 * Starts the delivery worker when SMTP_URL is set (otherwise nothing is sent and this is a no-op).
 * Returns the stop function, which waits for a round in progress.
 */
export function startMailWorker(ctx: MailContext, options: MailWorkerOptions = {}): () => Promise<void> {
  const url = ctx.config.SMTP_URL;
  if (!url && !options.transport) return async () => {};
  const o = { ...defaults, ...options };
  const transport = options.transport ?? createSmtpTransport(url as string);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const round = async () => {
    try {
      // Keep going while full batches come back, so a backlog drains without waiting for the poll.
      for (;;) {
        if (stopped) return;
        const r = await deliverDueEmails(ctx, transport, o);
        if (r.sent + r.retried + r.failed < o.batchSize) return;
      }
    } catch (e) {
      ctx.log.error({ err: e }, 'e-mail worker round failed');
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = round().finally(schedule);
    }, o.pollIntervalMs);
    timer.unref?.();
  };
  running = round().finally(schedule);

  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await running;
    if (!options.transport) transport.close?.();
  };
}
