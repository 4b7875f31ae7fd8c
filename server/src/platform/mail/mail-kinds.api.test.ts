import fs from 'node:fs';
import path from 'node:path';
import { activationsApi } from '@lp/contract/activations/api';
import { fsaApi } from '@lp/contract/fsa/api';
import { licenseFilesApi } from '@lp/contract/license-files/api';
import { statementsApi } from '@lp/contract/statements/api';
import { desc, eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import {
  buildElasticEntitlement,
  buildElasticServer,
  buildRateTable,
} from '../../../harness/elastic-factories.ts';
import { buildEntitlement, buildLease, dayFromToday as day } from '../../../harness/factories.ts';
import { acme, apiTest } from '../../../test/api-fixture.ts';
import { header, type MimePart, parseMime } from '../../../test/mime.ts';
import { type Received, startSmtpSink } from '../../../test/smtp-sink.ts';
import { accounts, emails, fsaPrices, products } from '../../db/schema.ts';
import { auditCheckpointJob } from '../../features/audit/checkpoint-service.ts';
import { noticesJob } from '../../features/notices/service.ts';
import { loadConfig } from '../config.ts';
import type { AppContext } from '../context.ts';
import { runDueJobs } from '../jobs.ts';
import { createSmtpTransport, deliverDueEmails, type StoredAttachment } from './mailer.ts';

/*
 * Issue 22 §6 (decision 060): each kind of e-mail the product sends, caused the way it is in production (the API
 * call, the job), delivered by the outbox to a real SMTP server and read as a mail client reads it: a plain-text
 * part beside the HTML with the same words, every link absolute under PUBLIC_URL, Auto-Submitted on all, and the
 * notice digest's List-Unsubscribe naming the page where notices are chosen. Attachments arrive as recorded.
 */

const PUBLIC_URL = 'https://portal.example.com/licensing';
const CN = acme.customerNumber;
const SERVER_ID = 'AA0000000066';
const CLS_SERVER = 'CLS-MAIL-1';
const FSA_PART = 'MAIL-FSA-SOLVER';

const it = apiTest
  /** The SMTP server the mail is delivered to, and a transport of the test's own to it. */
  // biome-ignore lint/correctness/noEmptyPattern: Vitest reads a fixture's dependencies from this pattern (none).
  .extend('smtp', { scope: 'file' }, async ({}, { onCleanup }) => {
    const sink = await startSmtpSink();
    const transport = createSmtpTransport(sink.url);
    onCleanup(async () => {
      transport.close?.();
      await sink.close();
    });
    return { sink, transport };
  })
  .override('appEnv', { scope: 'file' }, async ({ tempDir: root, smtp }) => ({
    PUBLIC_URL,
    SMTP_URL: smtp.sink.url,
    MAIL_FROM: 'Licensing Portal <no-reply@portal.example.com>',
    DATA_DIR: root,
    AUDIT_CHECKPOINT_DIR: path.join(root, 'checkpoints'),
    AUDIT_CHECKPOINT_EMAIL: 'audit@vendor.example',
  }))
  /** What the jobs and the outbox's round are given: the app's configuration, database and log. */
  .extend(
    'ctx',
    { scope: 'file' },
    async ({ app, appEnv, database }): Promise<AppContext> => ({
      config: loadConfig({ NODE_ENV: 'test', ...appEnv }),
      database,
      db: database.db,
      secret: Buffer.alloc(32),
      log: app.log,
    }),
  )
  .extend('mail', { scope: 'file' }, async ({ ctx, database, smtp: { sink, transport } }) => ({
    /**
     * The message the outbox delivers that `match` picks. The app's worker sends it within its poll; a round now
     * sends it at once (whichever of the two claims it sends it, once).
     */
    delivered: async (match: (mail: MimePart, envelope: Received) => boolean): Promise<MimePart> => {
      await deliverDueEmails(ctx, transport);
      const received = await sink.next((m) => match(parseMime(m.raw), m));
      return parseMime(received.raw);
    },
    /** The outbox row of the newest message with this subject: what the account's e-mail page shows. */
    storedAttachments: async (subject: string): Promise<StoredAttachment[]> => {
      const [row] = await database.db
        .select()
        .from(emails)
        .where(eq(emails.subject, subject))
        .orderBy(desc(emails.id))
        .limit(1);
      return row?.attachments as StoredAttachment[];
    },
  }));

// The cast comes first: its accounts own the data.
it.beforeAll(async ({ api, database, cast: { boss } }) => {
  const db = database.db;
  await db.update(accounts).set({ supportEmail: 'it@acme.example' }).where(eq(accounts.customerNumber, CN));
  // A statement: an elastic server and entitlement.
  await buildRateTable(db, '2025.1.0', { Solver: 2 });
  await buildElasticServer(db, CN, CLS_SERVER);
  await buildElasticEntitlement(db, CN, {
    activationId: 'ACT-MAIL',
    quantity: 1000,
    startDate: '2026-01-01',
    endDate: '2099-12-31',
  });
  // A license file: a product with its feature, a lease and a host it is activated on.
  await db.insert(products).values([
    {
      partNumber: 'MAIL-SOLVER',
      name: 'Solver',
      family: 'Fluids',
      daemon: 'cfdlmd',
      featureName: 'cfd_solver',
    },
    { partNumber: FSA_PART, name: 'Solver FSA', family: 'Platform', daemon: 'simlmd', featureName: 'solver' },
  ]);
  await buildLease(db, CN, 'LF-MAIL', { partNumber: 'MAIL-SOLVER' });
  await api.ok(boss, activationsApi.create, {
    customerNumber: CN,
    serverName: 'lic-mail',
    serverId: SERVER_ID,
    serverIdType: 'ETHERNET',
    activations: [{ id: 'LF-MAIL', count: 1 }],
  });
  // An FSA order: a contract with its busops list and a price.
  const contract = await buildEntitlement(db, CN, {
    activationId: 'FSA-MAIL',
    kind: 'FSA',
    licenseModel: 'FSA',
    startDate: day(-30),
    endDate: day(400),
    currency: 'USD',
    poNumber: 'PO-FSA-MAIL',
    priceCents: 1_000_000,
    busopsEmails: 'ops@acme.example',
  });
  await db.insert(fsaPrices).values({
    contractId: contract.id,
    partNumber: FSA_PART,
    price7DaysCents: 1_000,
    price30DaysCents: 3_500,
    price90DaysCents: 9_000,
    price1YearCents: 30_000,
  });
  // A notice: a lease ending within 30 days.
  await buildEntitlement(db, CN, { activationId: 'L-MAIL', productName: 'Solver', endDate: day(25) });
});

const subjectOf = (mail: MimePart) => header(mail, 'Subject') ?? '';

/**
 * What every kind must be: text/plain and text/html as alternatives (in a multipart/mixed with the attachments
 * when there are some), links absolute under PUBLIC_URL, Auto-Submitted. Answers the two texts and the attachments.
 */
function readable(mail: MimePart) {
  expect(header(mail, 'Auto-Submitted')).toBe('auto-generated');
  const alternative = mail.type === 'multipart/mixed' ? mail.parts[0] : mail;
  expect(alternative?.type).toBe('multipart/alternative');
  expect(alternative?.parts.map((p) => p.type)).toEqual(['text/plain', 'text/html']);
  const [text = '', html = ''] = (alternative?.parts ?? []).map((p) => p.content.toString('utf8'));
  for (const [, link] of html.matchAll(/\b(?:href|src)="([^"]*)"/g))
    expect(link?.startsWith(`${PUBLIC_URL}/`) || link?.startsWith('mailto:'), link).toBe(true);
  for (const [link] of text.matchAll(/\bhttps?:\/\/[^\s\]]+/g))
    expect(link.startsWith(`${PUBLIC_URL}/`), link).toBe(true);
  // The text part is text: no markup, no character references.
  expect(text).not.toMatch(/<\/?[a-z][^>]*>|&(?:amp|lt|gt|quot|#\d+);/i);
  const attachments = mail.type === 'multipart/mixed' ? mail.parts.slice(1) : [];
  // One line per line of the text, whitespace between words collapsed: wrapping does not change what it says.
  return { text, words: text.replace(/\s+/g, ' '), html, attachments };
}

const asStored = (attachments: MimePart[]) =>
  attachments.map((a) => ({
    filename: a.params.name,
    contentType: a.type,
    contentBase64: a.content.toString('base64'),
  }));

describe('each kind of e-mail, as a mail client receives it', () => {
  it('the statement e-mail: its summary as text, the PDF attached as recorded', async ({
    api,
    cast: { boss },
    mail: { delivered, storedAttachments },
  }) => {
    await api.ok(boss, statementsApi.emailWeek, {
      customerid: CN,
      customername: 'Acme',
      server: CLS_SERVER,
      activationid: 'ACT-MAIL',
      date: '2026-03-31T10:00:00.000Z',
    });
    const mail = await delivered((m) => subjectOf(m).startsWith('Weekly Statement ACT-MAIL'));
    expect(header(mail, 'List-Unsubscribe')).toBeUndefined();
    const { text, words, attachments } = readable(mail);
    expect(words).toContain('Weekly Statement of your elastic licensing usage.');
    expect(text).toMatch(/^ *Entitlement +ACT-MAIL *$/im);
    expect(text).toMatch(/^ *Period +2026-03-\d\d to 2026-0[34]-\d\d *$/im);
    expect(words).toContain('The summary statement is attached as a PDF.');
    expect(attachments.map((a) => a.content.subarray(0, 5).toString())).toEqual(['%PDF-']);
    expect(asStored(attachments)).toEqual(await storedAttachments(subjectOf(mail)));
  });

  it('the license file e-mail: the keys address absolute in both parts, the file attached as recorded', async ({
    api,
    cast: { boss },
    mail: { delivered, storedAttachments },
  }) => {
    await api.ok(boss, licenseFilesApi.email, {
      customerNumber: CN,
      serverId: SERVER_ID,
      serverIdType: 'ETHERNET',
    });
    const keys = `${PUBLIC_URL}${licenseFilesApi.keys.path}`;
    const mail = await delivered((m) => subjectOf(m).startsWith('License file license_'));
    const { words, html, attachments } = readable(mail);
    expect(words).toContain(`The license file of license server lic-mail (${SERVER_ID.toLowerCase()})`);
    expect(words).toContain(`anyone can check it with the public keys at ${keys}.`);
    expect(html).toContain(`<a href="${keys}">`);
    expect(attachments.map((a) => [a.type, a.content.toString('utf8').startsWith('SERVER ')])).toEqual([
      ['text/plain', true],
    ]);
    expect(asStored(attachments)).toEqual(await storedAttachments(subjectOf(mail)));
  });

  it('the FSA order confirmation: the order lines as a table in the text', async ({
    api,
    cast: { boss },
    mail: { delivered },
  }) => {
    await api.ok(boss, fsaApi.order, {
      customerNumber: CN,
      fsaID: 'FSA-MAIL',
      products: [{ ansysbpn: FSA_PART, ansyscount: 2, startdate: day(0), duration: '7' }],
    });
    const mail = await delivered((m) => subjectOf(m) === 'FSA order on FSA-MAIL: 1 line(s)');
    expect(mail.type).toBe('multipart/alternative');
    const { text, words } = readable(mail);
    expect(words).toContain('An order was placed on FSA contract FSA-MAIL.');
    // A header line, then the line's cells in the same columns.
    expect(text).toMatch(
      /^PRODUCT +COUNT +START +END +COST *\r?\nSolver FSA \(MAIL-FSA-SOLVER\) +2 +\d{4}-\d\d-\d\d +\d{4}-\d\d-\d\d +[\d,.]+ USD *$/m,
    );
    expect(text).toMatch(/\r?\n\r?\nTotal: [\d,.]+ USD\r?\n\r?\nRemaining balance: [\d,.]+ USD/);
  });

  it('the notice digest: the notices, the link to the notice choices, List-Unsubscribe to it', async ({
    ctx,
    mail: { delivered },
  }) => {
    const choices = `${PUBLIC_URL}/emails?account=${CN}&notices=choose`;
    expect(await runDueJobs(ctx, [noticesJob])).toEqual([
      expect.objectContaining({ name: 'notices', ok: true }),
    ]);
    const mail = await delivered(
      (m, envelope) =>
        subjectOf(m).startsWith(`Licensing notices for account ${CN}`) &&
        envelope.to.includes('boss@acme.example'),
    );
    expect(header(mail, 'List-Unsubscribe')).toBe(`<${choices}>`);
    // No one-click unsubscribe (RFC 8058): the choices are made signed in, so it is not offered.
    expect(header(mail, 'List-Unsubscribe-Post')).toBeUndefined();
    const { words, html } = readable(mail);
    expect(words).toContain(`New licensing notices for account ${CN}:`);
    expect(words).toMatch(/ - Lease Solver \(L-MAIL\) ends on \d{4}-\d\d-\d\d: \d+ days left\./);
    expect(words).toContain(`choose your notices [${choices}]`);
    expect(html).toContain(`<a href="${choices.replace('&', '&amp;')}">choose your notices</a>`);
  });

  it('the audit checkpoint copy: the command to check it, the checkpoint attached as written', async ({
    ctx,
    tempDir: root,
    mail: { delivered },
  }) => {
    expect(await runDueJobs(ctx, [auditCheckpointJob(60)])).toEqual([
      expect.objectContaining({ name: 'audit-checkpoint', ok: true }),
    ]);
    const mail = await delivered((m) => subjectOf(m).startsWith('Audit checkpoint '));
    const { words, attachments } = readable(mail);
    expect(words).toMatch(/Audit checkpoint of \S+: \d+ chains, \d+ entries\./);
    expect(words).toContain('npm run cli -- audit verify --checkpoints FOLDER checks the log against it.');
    const [file] = attachments;
    expect(file?.type).toBe('application/json');
    expect(file?.content.toString('utf8')).toBe(
      fs.readFileSync(path.join(root, 'checkpoints', file?.params.name ?? ''), 'utf8'),
    );
  });
});
