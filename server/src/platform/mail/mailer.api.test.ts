import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect } from 'vitest';
import { buildAccount } from '../../../harness/factories.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { apiTest } from '../../../test/api-fixture.ts';
import { header, parseMime } from '../../../test/mime.ts';
import { startSmtpSink } from '../../../test/smtp-sink.ts';
import { type Db, openPostgres, queryRows } from '../../db/database.ts';
import { emails } from '../../db/schema.ts';
import { loadConfig } from '../config.ts';
import { createSmtpTransport, deliverDueEmails, sendAccountEmail, startMailWorker } from './mailer.ts';

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

const logged: { level: string; msg: string }[] = [];
const log = {
  info: (_o: unknown, msg: string) => logged.push({ level: 'info', msg }),
  warn: (_o: unknown, msg: string) => logged.push({ level: 'warn', msg }),
  error: (_o: unknown, msg: string) => logged.push({ level: 'error', msg }),
} as unknown as FastifyBaseLogger;

const config = (env: Record<string, string> = {}) =>
  loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: os.tmpdir(),
    MAIL_FROM: 'Portal <portal@vendor.example>',
    ...env,
  });

const customerNumber = '4100001';

const test = apiTest
  /** The fixture's database, with the account the messages are sent for. */
  .extend('db', { scope: 'file' }, async ({ database }): Promise<Db> => {
    await buildAccount(database.db, { customerNumber, name: 'Mail Test Co' });
    return database.db;
  })
  // biome-ignore lint/correctness/noEmptyPattern: Vitest reads a fixture's dependencies from this pattern (none).
  .extend('smtp', { scope: 'file' }, async ({}, { onCleanup }) => {
    const smtp = await startSmtpSink();
    onCleanup(() => smtp.close());
    return smtp;
  })
  /** The stored row of message `id`. */
  .extend('stored', { scope: 'file' }, async ({ db }) => async (id: number) => {
    const [row] = await db.select().from(emails).where(eq(emails.id, id));
    return row;
  });

test.afterEach(async ({ db, smtp }) => {
  smtp.state.mode = 'accept';
  smtp.state.delayMs = 0;
  smtp.state.received.length = 0;
  await db.delete(emails);
});

const pdfBase64 = Buffer.from('%PDF-1.4 statement').toString('base64');

const message = (subject: string) => ({
  customerNumber,
  to: ['licensing@mailtest.example', 'ops@mailtest.example'],
  cc: 'boss@mailtest.example',
  subject,
  html: '<p>Your license file is attached.</p>',
  attachments: [
    { filename: 'license.lic', contentType: 'text/plain', content: 'SERVER host1 0011223344 27000\n' },
  ],
});

describe('sendAccountEmail without SMTP_URL', () => {
  test('records and logs the message and sends nothing', async ({ db, smtp, stored }) => {
    const ctx = { db, log, config: config() };
    const { id, deliveryStatus } = await sendAccountEmail(ctx, message('Recorded only'));
    expect(deliveryStatus).toBe('recorded');
    const row = await stored(id);
    expect(row).toMatchObject({
      deliveryStatus: 'recorded',
      to: 'licensing@mailtest.example, ops@mailtest.example',
      cc: 'boss@mailtest.example',
      subject: 'Recorded only',
      attempts: 0,
    });
    expect(row.attachments).toEqual([
      {
        filename: 'license.lic',
        contentType: 'text/plain',
        contentBase64: Buffer.from('SERVER host1 0011223344 27000\n').toString('base64'),
      },
    ]);
    expect(logged.some((l) => l.msg.includes('recorded'))).toBe(true);
    // The worker does not start without SMTP: nothing is delivered. (A worker runs its first round at once, and
    // stopping waits for the round in flight.)
    const stop = startMailWorker(ctx, { pollIntervalMs: 10 });
    await stop();
    expect(smtp.state.received).toHaveLength(0);
    expect((await stored(id)).deliveryStatus).toBe('recorded');
  });

  test('writes inside the caller transaction: a rolled-back change leaves no message', async ({ db }) => {
    const ctx = { db, log, config: config() };
    await expect(
      db.transaction(async (tx) => {
        await sendAccountEmail(ctx, message('Rolled back'), tx as unknown as Db);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await db.select().from(emails)).toHaveLength(0);
  });
});

describe('delivery through SMTP', () => {
  test('delivers recipients, subject and attachment as sent and marks the message sent', async ({
    db,
    smtp,
    stored,
  }) => {
    const ctx = { db, log, config: config({ SMTP_URL: smtp.url }) };
    const { id, deliveryStatus } = await db.transaction(async (tx) =>
      sendAccountEmail(
        ctx,
        {
          ...message('License file for host1'),
          attachments: [
            ...message('').attachments,
            { filename: 'statement.pdf', contentType: 'application/pdf', contentBase64: pdfBase64 },
          ],
        },
        tx as unknown as Db,
      ),
    );
    expect(deliveryStatus).toBe('pending');
    const transport = createSmtpTransport(smtp.url);
    expect(await deliverDueEmails(ctx, transport)).toEqual({ sent: 1, retried: 0, failed: 0 });
    transport.close?.();

    expect(smtp.state.received).toHaveLength(1);
    const mail = smtp.state.received[0];
    expect(mail.from).toBe('portal@vendor.example');
    expect(mail.to.sort()).toEqual([
      'boss@mailtest.example',
      'licensing@mailtest.example',
      'ops@mailtest.example',
    ]);
    expect(mail.raw).toContain('Subject: License file for host1');
    expect(mail.raw).toContain('filename=license.lic');
    expect(mail.raw).toContain('filename=statement.pdf');
    expect(mail.raw.replace(/\r?\n/g, '')).toContain(pdfBase64);
    expect(mail.raw.replace(/\r?\n/g, '')).toContain(
      Buffer.from('SERVER host1 0011223344 27000\n').toString('base64'),
    );
    const row = await stored(id);
    expect(row).toMatchObject({ deliveryStatus: 'sent', attempts: 1, lastError: null });
    expect(row.sentAt).toBeInstanceOf(Date);
    // A second round finds nothing due: no duplicate.
    expect(await deliverDueEmails(ctx, createSmtpTransport(smtp.url))).toEqual({
      sent: 0,
      retried: 0,
      failed: 0,
    });
    expect(smtp.state.received).toHaveLength(1);
  });

  test('keeps a rejected message pending with the error, and delivers it on a later run', async ({
    db,
    smtp,
    stored,
  }) => {
    const ctx = { db, log, config: config({ SMTP_URL: smtp.url }) };
    const { id } = await sendAccountEmail(ctx, message('Retry me'));
    smtp.state.mode = 'reject';
    const transport = createSmtpTransport(smtp.url);
    // A back-off long enough that a stalled (loaded) machine still checks "not due yet" inside it.
    expect(await deliverDueEmails(ctx, transport, { retryBaseMs: 3_000 })).toEqual({
      sent: 0,
      retried: 1,
      failed: 0,
    });
    let row = await stored(id);
    expect(row.deliveryStatus).toBe('pending');
    expect(row.attempts).toBe(1);
    expect(row.lastError).toMatch(/451|temporarily unavailable/i);
    expect(row.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now());

    smtp.state.mode = 'accept';
    // Not due yet: the back-off is respected.
    expect(await deliverDueEmails(ctx, transport, { retryBaseMs: 300 })).toEqual({
      sent: 0,
      retried: 0,
      failed: 0,
    });
    // Once the back-off has passed, a run delivers it.
    await expect
      .poll(() => deliverDueEmails(ctx, transport), { timeout: 30_000, interval: 250 })
      .toEqual({ sent: 1, retried: 0, failed: 0 });
    transport.close?.();
    row = await stored(id);
    expect(row).toMatchObject({ deliveryStatus: 'sent', attempts: 2 });
    expect(smtp.state.received.map((m) => m.raw.includes('Subject: Retry me'))).toEqual([true]);
  });

  test('keeps the message pending when the SMTP port is closed', async ({ db, smtp, stored }) => {
    const url = `smtp://127.0.0.1:${await closedPort()}`;
    const ctx = { db, log, config: config({ SMTP_URL: url }) };
    const { id } = await sendAccountEmail(ctx, message('Nobody listening'));
    expect(await deliverDueEmails(ctx, createSmtpTransport(url), { retryBaseMs: 0 })).toMatchObject({
      retried: 1,
    });
    const row = await stored(id);
    expect(row).toMatchObject({ deliveryStatus: 'pending', attempts: 1 });
    expect(row.lastError).toMatch(/ECONNREFUSED|connect/i);
    // The same message reaches a working server later (the retry is due at once: no back-off in this test).
    const working = { ...ctx, config: config({ SMTP_URL: smtp.url }) };
    expect(await deliverDueEmails(working, createSmtpTransport(smtp.url))).toMatchObject({ sent: 1 });
    expect((await stored(id)).deliveryStatus).toBe('sent');
  });

  test('marks the message failed after MAIL_MAX_ATTEMPTS and keeps it recorded', async ({
    db,
    smtp,
    stored,
  }) => {
    const ctx = { db, log, config: config({ SMTP_URL: smtp.url, MAIL_MAX_ATTEMPTS: '3' }) };
    const { id } = await sendAccountEmail(ctx, message('Never accepted'));
    smtp.state.mode = 'reject';
    const transport = createSmtpTransport(smtp.url);
    for (let i = 0; i < 2; i++) {
      expect(await deliverDueEmails(ctx, transport, { retryBaseMs: 0 })).toMatchObject({ retried: 1 });
    }
    expect(await deliverDueEmails(ctx, transport, { retryBaseMs: 0 })).toMatchObject({ failed: 1 });
    // Failed messages are not retried any more.
    expect(await deliverDueEmails(ctx, transport, { retryBaseMs: 0 })).toEqual({
      sent: 0,
      retried: 0,
      failed: 0,
    });
    transport.close?.();
    const row = await stored(id);
    expect(row).toMatchObject({
      deliveryStatus: 'failed',
      attempts: 3,
      subject: 'Never accepted',
      body: '<p>Your license file is attached.</p>',
      nextAttemptAt: null,
    });
    expect(row.lastError).toMatch(/451|temporarily unavailable/i);
  });

  test('never delivers one message twice when two workers run at once', async ({ database, db, smtp }) => {
    const ctx = { db, log, config: config({ SMTP_URL: smtp.url }) };
    const ids: number[] = [];
    for (let i = 0; i < 24; i++) ids.push((await sendAccountEmail(ctx, message(`Bulk ${i}`))).id);
    smtp.state.delayMs = 5;
    // On PostgreSQL the second worker is a separate connection pool, like a second API node.
    const otherDatabase = database.url ? await openPostgres(database.url, 3) : undefined;
    const other = { ...ctx, db: otherDatabase?.db ?? db };
    const options = { pollIntervalMs: 20, batchSize: 3 };
    const stopA = startMailWorker(ctx, { ...options, transport: createSmtpTransport(smtp.url) });
    const stopB = startMailWorker(other, { ...options, transport: createSmtpTransport(smtp.url) });
    try {
      const sentCount = async () =>
        Number(
          (
            await queryRows<{ n: string | number }>(
              db,
              sql`select count(*) as n from emails where delivery_status = 'sent'`,
            )
          )[0].n,
        );
      await expect.poll(sentCount, { timeout: 20_000 }).toBe(24);
    } finally {
      await stopA();
      await stopB();
      await otherDatabase?.close();
    }
    const subjects = smtp.state.received.map((m) => /Subject: (Bulk \d+)/.exec(m.raw)?.[1]);
    expect(subjects).toHaveLength(24);
    expect(new Set(subjects).size).toBe(24);
    const rows = await db.select().from(emails);
    expect(rows.every((r) => r.deliveryStatus === 'sent' && r.attempts === 1)).toBe(true);
  });
});

describe('what every message carries (decision 060)', () => {
  test('a plain-text part beside the HTML, links made absolute, a titled English document, Auto-Submitted', async ({
    db,
    smtp,
    stored,
  }) => {
    const publicUrl = 'https://portal.example.com/lp';
    const ctx = { db, log, config: config({ SMTP_URL: smtp.url, PUBLIC_URL: publicUrl }) };
    const { id } = await sendAccountEmail(ctx, {
      ...message('Links & tables'),
      html:
        '<p>See <a href="/emails?account=4100001&amp;x=1">your e-mails</a>, <a href="emails/7">one</a>, ' +
        '<a href="https://vendor.example/help">help</a> or <a href="mailto:help@vendor.example">write</a>.</p>' +
        '<table><tr><th>Product</th><th>Count</th></tr><tr><td>Solver &amp; Co</td><td>2</td></tr></table>',
      headers: { 'List-Unsubscribe': `<${publicUrl}/emails>` },
    });
    // Stored with absolute links, so the account's e-mail page shows the links the recipient got.
    expect((await stored(id)).body).toContain(`<a href="${publicUrl}/emails?account=4100001&amp;x=1">`);
    const transport = createSmtpTransport(smtp.url);
    expect(await deliverDueEmails(ctx, transport)).toMatchObject({ sent: 1 });
    transport.close?.();

    const mail = parseMime((await smtp.next((m) => m.raw.includes('Links & tables'))).raw);
    expect(header(mail, 'Auto-Submitted')).toBe('auto-generated');
    expect(header(mail, 'X-Auto-Response-Suppress')).toBe('OOF, AutoReply');
    expect(header(mail, 'List-Unsubscribe')).toBe(`<${publicUrl}/emails>`);
    expect(mail.type).toBe('multipart/mixed');
    const [alternative, ...attached] = mail.parts;
    expect(alternative?.type).toBe('multipart/alternative');
    expect(alternative?.parts.map((p) => `${p.type}; ${p.params.charset}`)).toEqual([
      'text/plain; utf-8',
      'text/html; utf-8',
    ]);
    const [plain, html] = (alternative?.parts ?? []).map((p) => p.content.toString('utf8'));
    expect(plain?.replace(/\s+/g, ' ')).toContain(
      `See your e-mails [${publicUrl}/emails?account=4100001&x=1], one [${publicUrl}/emails/7], ` +
        'help [https://vendor.example/help] or write [help@vendor.example].',
    );
    // The table as columns: a header line, then the row.
    expect(plain).toMatch(/PRODUCT +COUNT\r?\n *Solver & Co +2/);
    expect(html).toMatch(
      /^<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Links &amp; tables<\/title>/,
    );
    expect(html).toContain(`<a href="${publicUrl}/emails/7">one</a>`);
    // The attachments are as they were given.
    expect(attached.map((a) => [a.type, a.params.name, a.content.toString('utf8')])).toEqual([
      ['text/plain', 'license.lic', 'SERVER host1 0011223344 27000\n'],
    ]);
  });
});

describe('the app runs the worker', () => {
  test('delivers messages queued while the app is up and stops with it', async ({ database, db, smtp }) => {
    const app = await createTestApp(database, { SMTP_URL: smtp.url });
    await app.ready();
    try {
      const ctx = { db, log, config: config({ SMTP_URL: smtp.url }) };
      await sendAccountEmail(ctx, message('Through the app worker'));
      // The worker polls every 5 seconds.
      await expect.poll(() => smtp.state.received.length, { timeout: 15_000 }).toBe(1);
    } finally {
      await app.close();
    }
    expect(smtp.state.received[0].raw).toContain('Subject: Through the app worker');
  });
});
