import { messages } from '@lp/contract/common/errors';
import type { BodyInput } from '@lp/contract/common/operation';
import { emailsApi } from '@lp/contract/emails/api';
import { prefsApi } from '@lp/contract/prefs/api';
import { statementsApi } from '@lp/contract/statements/api';
import { contactRoles } from '@lp/domain/policy';
import { BALANCE_ADJUSTMENT, UNCOVERED_ACTIVATION, UNCOVERED_PO } from '@lp/domain/statement';
import { desc, eq } from 'drizzle-orm';
import { PDFParse } from 'pdf-parse';
import { describe, expect } from 'vitest';
import {
  buildElasticEntitlement,
  buildElasticServer,
  buildRateTable,
  recordUsage,
} from '../../../harness/elastic-factories.ts';
import { addContact, buildAccount, buildEntitlement } from '../../../harness/factories.ts';
import { acme, anonymous, apiTest, other } from '../../../test/api-fixture.ts';
import {
  outline,
  pdfCatalog,
  pdfObject,
  refOf,
  type StructNode,
  structTree,
} from '../../../test/pdf-structure.ts';
import { accounts, emails } from '../../db/schema.ts';
import type { StoredAttachment } from '../../platform/mail/mailer.ts';
import { postAdjustment } from '../ledger/service.ts';

const ACME = acme.customerNumber;
const OVER = '5200002';
const EMPTY = '5200003';
const OTHER = other.customerNumber;
const march = { from: '2026-03-01', to: '2026-03-31' };

/** Charges land on the day a session ends (rate × count × hours). */
const session = (product: string, start: string, hours: number, count = 1) => ({
  product,
  count,
  start,
  end: new Date(Date.parse(start) + hours * 3_600_000).toISOString(),
});

const ACME_SERVER = 'CLS-ACME-1';
const OTHER_SERVER = 'CLS-OTHER-1';

const test = apiTest
  /** Someone signed in who belongs to no account. */
  .extend('stranger', { scope: 'file' }, async ({ signIn }) => signIn('nobody@elsewhere.example'))
  /** The account's newest e-mail. */
  .extend('latestEmail', { scope: 'file' }, async ({ database }) => async () => {
    const [row] = await database.db
      .select()
      .from(emails)
      .where(eq(emails.customerNumber, ACME))
      .orderBy(desc(emails.id))
      .limit(1);
    return row!;
  });

// The cast comes first: its accounts own the ledger; its admin administers Overdrawn and No Elastic as well.
test.beforeAll(async ({ database, cast: _accounts }) => {
  const { db } = database;
  await db.update(accounts).set({ name: 'Acme Statements Ltd' }).where(eq(accounts.customerNumber, ACME));
  await buildAccount(db, { customerNumber: OVER, name: 'Overdrawn Inc' });
  await buildAccount(db, { customerNumber: EMPTY, name: 'No Elastic Corp' });
  for (const cn of [OVER, EMPTY]) await addContact(db, cn, 'boss@acme.example', contactRoles.admin);
  await buildRateTable(db, '2025.1.0', { Fluent: 10, Mechanical: 4 });

  await buildElasticServer(db, ACME, ACME_SERVER);
  await buildElasticServer(db, OTHER, OTHER_SERVER);
  // Drawn first (earliest expiry), then the big one.
  await buildElasticEntitlement(db, ACME, {
    activationId: 'ACT-SMALL',
    poNumber: 'PO-SMALL',
    quantity: 100,
    startDate: '2026-01-01',
    endDate: '2026-06-30',
  });
  await buildElasticEntitlement(db, ACME, {
    activationId: 'ACT-BIG',
    poNumber: 'PO-BIG',
    quantity: 1000,
    startDate: '2026-01-01',
    endDate: '2026-12-31',
  });
  // Ended before the period and unused in it: not on the statement.
  await buildElasticEntitlement(db, ACME, {
    activationId: 'ACT-OLD',
    poNumber: 'PO-OLD',
    quantity: 50,
    startDate: '2025-01-01',
    endDate: '2025-12-31',
  });
  await buildEntitlement(db, ACME, { activationId: 'ACT-SSL', kind: 'SSL', licenseModel: 'Lease' });
  await buildElasticEntitlement(db, OTHER, {
    activationId: 'ACT-OTHER',
    quantity: 100,
    startDate: '2026-01-01',
    endDate: '2026-12-31',
  });

  await recordUsage(db, { customerNumber: ACME, elasticServerId: ACME_SERVER }, [
    session('Fluent', '2026-02-10T08:00:00Z', 5), // 50 before the period, from ACT-SMALL
    session('Fluent', '2026-03-05T08:00:00Z', 8), // 80: 50 empties ACT-SMALL, 30 from ACT-BIG
    session('Mechanical', '2026-03-20T08:00:00Z', 2.5, 2), // 20 from ACT-BIG
    session('Fluent', '2026-04-10T08:00:00Z', 1), // 10 after the period
  ]);
  // A credit of 5 units on ACT-BIG within the period: a negative product total.
  await db.transaction((tx) =>
    postAdjustment(tx, {
      customerNumber: ACME,
      activationId: 'ACT-BIG',
      amount: -5,
      product: 'Service credit',
      note: 'goodwill',
      day: '2026-03-25',
      createdBy: 'ops@vendor.example',
    }),
  );

  await buildElasticServer(db, OVER, 'CLS-OVER-1');
  await buildElasticEntitlement(db, OVER, {
    activationId: 'ACT-TINY',
    poNumber: 'PO-TINY',
    quantity: 10,
    startDate: '2026-01-01',
    endDate: '2026-12-31',
  });
  await recordUsage(db, { customerNumber: OVER, elasticServerId: 'CLS-OVER-1' }, [
    session('Fluent', '2026-03-10T08:00:00Z', 2.5), // 25: 10 covered, 15 overage
  ]);
});

const statementBody = (over: object = {}) =>
  ({
    ...march,
    today: '2026-04-15',
    customerNumber: ACME,
    customerName: 'Acme Statements Ltd',
    ...over,
  }) as BodyInput<typeof statementsApi.statement>;
const pdfInfo = async (data: Buffer): Promise<Record<string, unknown>> => {
  const parser = new PDFParse({ data: new Uint8Array(data) });
  try {
    return (await parser.getInfo()).info;
  } finally {
    await parser.destroy();
  }
};
const pdfText = async (data: Buffer) => {
  const parser = new PDFParse({ data: new Uint8Array(data) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
};

describe('POST /api/statements', () => {
  test('computes balances and period usage per purchase order from the ledger rollups', async ({
    api,
    cast: { boss },
  }) => {
    const body = await api.ok(boss, statementsApi.statement, statementBody());
    expect(body.status).toBe('SUCCESS');
    expect(body.data.Customer).toEqual({
      ReportDate: '2026-04-15',
      AccountId: ACME,
      AccountName: 'Acme Statements Ltd',
      PeriodStart: '2026-03-01',
      PeriodEnd: '2026-03-31',
    });
    expect(body.data.Records).toEqual([
      {
        PONumber: 'PO-BIG',
        ActivationId: 'ACT-BIG',
        StartDate: '2026-01-01',
        EndDate: '2026-12-31',
        BalanceBeforeStart: 1000,
        BalanceAtEnd: 955,
        Used: 45,
        Currency: 'USD',
        LineItemQuantity: 1000,
        TotalUsed: 45,
        Products: [
          { product: 'Fluent', total: 30, currency: 'USD' },
          { product: 'Mechanical', total: 20, currency: 'USD' },
          { product: 'Service credit', total: -5, currency: 'USD' },
        ],
      },
      {
        PONumber: 'PO-SMALL',
        ActivationId: 'ACT-SMALL',
        StartDate: '2026-01-01',
        EndDate: '2026-06-30',
        BalanceBeforeStart: 50,
        BalanceAtEnd: 0,
        Used: 50,
        Currency: 'USD',
        LineItemQuantity: 100,
        TotalUsed: 100,
        Products: [{ product: 'Fluent', total: 50, currency: 'USD' }],
      },
    ]);
    expect(body.data.Products).toEqual([
      { product: 'Fluent', total: 80, currency: 'USD' },
      { product: 'Mechanical', total: 20, currency: 'USD' },
      { product: 'Service credit', total: -5, currency: 'USD' },
    ]);
  });

  test('counts usage through the end day and none before the start day', async ({ api, cast: { boss } }) => {
    const records = async (period: { from: string; to: string }) =>
      (await api.ok(boss, statementsApi.statement, statementBody(period))).data.Records;
    const feb = (await records({ from: '2026-02-10', to: '2026-02-10' })).find(
      (r) => r.ActivationId === 'ACT-SMALL',
    );
    expect(feb).toMatchObject({ BalanceBeforeStart: 100, Used: 50, BalanceAtEnd: 50 });
    const april = (await records({ from: '2026-04-01', to: '2026-04-30' })).find(
      (r) => r.ActivationId === 'ACT-BIG',
    );
    expect(april).toMatchObject({ BalanceBeforeStart: 955, Used: 10, BalanceAtEnd: 945, TotalUsed: 55 });
  });

  test('lists usage no entitlement covered as its own Overage row', async ({ api, cast: { boss } }) => {
    const { Records, Products } = (
      await api.ok(boss, statementsApi.statement, statementBody({ customerNumber: OVER }))
    ).data;
    expect(Records).toEqual([
      expect.objectContaining({
        ActivationId: 'ACT-TINY',
        BalanceBeforeStart: 10,
        BalanceAtEnd: 0,
        Used: 10,
      }),
      expect.objectContaining({
        PONumber: UNCOVERED_PO,
        ActivationId: UNCOVERED_ACTIVATION,
        BalanceBeforeStart: 0,
        BalanceAtEnd: -15,
        Used: 15,
        Currency: 'USD',
        Products: [{ product: 'Fluent', total: 15, currency: 'USD' }],
      }),
    ]);
    expect(Products).toEqual([{ product: 'Fluent', total: 25, currency: 'USD' }]);
  });

  test('answers an account without elastic entitlements with the spec text', async ({
    api,
    cast: { boss },
  }) => {
    const refusal = await api.refused(
      boss,
      statementsApi.statement,
      statementBody({ customerNumber: EMPTY }),
    );
    expect(refusal).toMatchObject({ status: 'FAILURE', err: messages.noActiveEntitlements });
    expect(messages.noActiveEntitlements).toBe('No active entitlements for account');
  });

  test('lets view-only contacts and vendor staff read, with the report date defaulting to today', async ({
    api,
    cast: { reader, support },
  }) => {
    await api.ok(reader, statementsApi.statement, statementBody());
    const answer = await api.ok(support, statementsApi.statement, statementBody({ today: undefined }));
    expect(answer.data.Customer.ReportDate).toBe(new Date().toISOString().slice(0, 10));
  });

  test('answers 401 without a session and 403 to outsiders, naming nothing of the account', async ({
    api,
    stranger,
    cast: { outsider },
  }) => {
    await api.refused(anonymous, statementsApi.statement, statementBody(), 401);
    for (const who of [stranger, outsider]) {
      const refusal = await api.refused(who, statementsApi.statement, statementBody(), 403);
      expect(JSON.stringify(refusal)).not.toContain('ACT-');
      expect(refusal.err).toBe(messages.noPermissionPage);
    }
  });

  test('refuses bad periods with 400', async ({ api, cast: { boss } }) => {
    for (const bad of [
      { from: '2026-02-30' },
      { to: '31/03/2026' },
      { from: '2026-04-01', to: '2026-03-31' },
      { customerNumber: '' },
      { from: undefined },
    ]) {
      // refused checks the FAILURE envelope.
      await api.refused(boss, statementsApi.statement, statementBody(bad), 400);
    }
    const reversed = await api.refused(boss, statementsApi.statement, statementBody({ from: '2026-04-01' }));
    expect(reversed.err).toMatch(/start date is after the end date/);
  });
});

describe('POST /api/getPdf', () => {
  test('answers a PDF named after customer and period with the header, both tables and pie legends', async ({
    api,
    cast: { boss },
  }) => {
    const res = await api.call(boss, statementsApi.pdf, statementBody());
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="ElasticLicensingSummaryStatement ${ACME} 2026-03-01 2026-03-31.pdf"`,
    );
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(res.rawPayload);
    for (const expected of [
      'Elastic Licensing Summary Statement',
      'Report Date: 2026-04-15',
      `Account: ${ACME} (Acme Statements Ltd)`,
      'Period Start Date: 2026-03-01',
      'Period End Date: 2026-03-31',
      'Usage by Purchase Order',
      'PO-BIG',
      'ACT-BIG',
      'PO-SMALL',
      '1,000',
      'Usage by Product',
      'Mechanical',
      BALANCE_ADJUSTMENT,
      'Period Used by Product',
      'Fluent: 80.00 (80.0 %)',
    ]) {
      expect(text).toContain(expected);
    }
    // The credit is relabelled, and dropped from the pie legend.
    expect(text).not.toContain('Service credit');
  });

  test('is tagged for screen readers: structure in reading order, column headers, language and title', async ({
    api,
    cast: { boss },
  }) => {
    const pdf = (await api.call(boss, statementsApi.pdf, statementBody())).rawPayload;
    const catalog = pdfCatalog(pdf);
    expect(pdfObject(pdf, refOf(catalog, 'MarkInfo'))).toMatch(/\/Marked true/);
    expect(catalog).toMatch(/\/Lang \(en-US\)/);
    // The viewer shows the title, not the file name.
    expect(pdfObject(pdf, refOf(catalog, 'ViewerPreferences'))).toMatch(/\/DisplayDocTitle true/);
    const info = await pdfInfo(pdf);
    expect(info.Title).toBe(`Elastic Licensing Summary Statement ${ACME}`);
    expect(info.Language).toBe('en-US');

    const [document, ...others] = structTree(pdf);
    expect(others).toEqual([]);
    expect(document?.role).toBe('Document');
    const sections = document?.children ?? [];
    expect(sections.map((n) => n.role)).toEqual([
      'H1',
      'P',
      'P',
      'P',
      'H2',
      'Table',
      'H3',
      'L',
      'H2',
      'Table',
      'H3',
      'L',
    ]);
    const [poTable, productTable] = sections.filter((n) => n.role === 'Table') as [StructNode, StructNode];
    const header = poTable.children[0] as StructNode;
    expect(outline([header])).toBe(`TR(${Array(8).fill('TH').join(',')})`);
    for (const th of header.children) expect(th.attributes).toMatch(/\/O \/Table[\s\S]*\/Scope \/Column/);
    // PO-BIG's row, then its three products as a table in one cell spanning the eight columns; then PO-SMALL's.
    expect(outline(poTable.children.slice(1))).toBe(
      `TR(${Array(8).fill('TD').join(',')}),TR(TD(Table(TR(TD,TD,TD),TR(TD,TD,TD),TR(TD,TD,TD)))),` +
        `TR(${Array(8).fill('TD').join(',')}),TR(TD(Table(TR(TD,TD,TD))))`,
    );
    expect(poTable.children[2]?.children[0]?.attributes).toMatch(/\/ColSpan 8/);
    expect(outline(productTable.children)).toBe('TR(TH,TH,TH),TR(TD,TD,TD),TR(TD,TD,TD),TR(TD,TD,TD)');
    // Every leaf holds drawn content, so nothing the reader is told about is empty.
    const leaves = (nodes: StructNode[]): StructNode[] =>
      nodes.flatMap((n) => (n.children.length ? leaves(n.children) : [n]));
    for (const leaf of leaves(sections)) expect(leaf.content.length, leaf.role).toBeGreaterThan(0);
  });

  test('refuses like the statement call', async ({ api, stranger, cast: { boss } }) => {
    await api.refused(anonymous, statementsApi.pdf, statementBody(), 401);
    await api.refused(stranger, statementsApi.pdf, statementBody(), 403);
    const bad = await api.call(boss, statementsApi.pdf, statementBody({ to: '2026-02-01' }));
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toMatch(/application\/json/);
    const empty = await api.refused(boss, statementsApi.pdf, statementBody({ customerNumber: EMPTY }));
    expect(empty).toMatchObject({ status: 'FAILURE', err: messages.noActiveEntitlements });
  });
});

describe('POST /api/emailweek and /api/emailmonth', () => {
  const emailBody = (over: object = {}) =>
    ({
      customerid: ACME,
      customername: 'Acme Statements Ltd',
      server: ACME_SERVER,
      activationid: 'ACT-BIG',
      date: '2026-03-31T10:00:00.000Z',
      ...over,
    }) as BodyInput<typeof statementsApi.emailWeek>;

  test('records the weekly statement of the entitlement in the account e-mails, PDF attached', async ({
    api,
    latestEmail,
    cast: { boss },
  }) => {
    expect(await api.ok(boss, statementsApi.emailWeek, emailBody())).toEqual({ status: 'SUCCESS' });
    const mail = await latestEmail();
    expect(mail.to).toBe(boss.email);
    expect(mail.subject).toBe('Weekly Statement ACT-BIG 2026-03-25 to 2026-03-31');
    expect(mail.body).toContain('CLS-ACME-1');
    expect(mail.body).toContain('-5'); // the credit of 2026-03-25 is the only movement that week
    const [attachment] = mail.attachments as StoredAttachment[];
    expect(attachment).toMatchObject({
      filename: `ElasticLicensingSummaryStatement ${ACME} 2026-03-25 2026-03-31.pdf`,
      contentType: 'application/pdf',
    });
    const text = await pdfText(Buffer.from(attachment.contentBase64, 'base64'));
    expect(text).toContain('Period Start Date: 2026-03-25');
    expect(text).toContain('ACT-BIG');
    expect(text).not.toContain('ACT-SMALL');

    // The account's e-mail list shows it.
    const list = await api.ok(boss, emailsApi.page, { customerNumber: ACME });
    expect(list.data[0]).toMatchObject({ subject: mail.subject, to: boss.email });
  });

  test('sends the monthly statement for the month through the date, to the requesting user', async ({
    api,
    latestEmail,
    cast: { boss },
  }) => {
    const answer = await api.ok(boss, statementsApi.emailMonth, emailBody({ date: '2026-03-31' }));
    expect(answer).toEqual({ status: 'SUCCESS' });
    const mail = await latestEmail();
    expect(mail.to).toBe(boss.email);
    expect(mail.subject).toBe('Monthly Statement ACT-BIG 2026-03-01 to 2026-03-31');
    expect(mail.body).toContain('45.00 USD'); // period used
    expect(mail.body).toContain('955.00 USD'); // balance at the end
  });

  test('refuses unknown or foreign activation ids and servers with 404, sending nothing', async ({
    api,
    database,
    cast: { boss },
  }) => {
    const before = await database.db.$count(emails);
    for (const over of [
      { activationid: 'ACT-NOPE' },
      { activationid: 'ACT-OTHER' },
      { activationid: 'ACT-SSL' },
      { server: 'CLS-NOPE' },
      { server: OTHER_SERVER },
    ]) {
      // refused checks the FAILURE envelope.
      await api.refused(boss, statementsApi.emailWeek, emailBody(over), 404);
    }
    expect(await database.db.$count(emails)).toBe(before);
  });

  test('refuses view-only users and view-only support staff with 403, sending nothing (decision 022)', async ({
    api,
    database,
    cast: { reader, support },
  }) => {
    const before = await database.db.$count(emails);
    for (const [operation, who] of [
      [statementsApi.emailWeek, reader],
      [statementsApi.emailMonth, reader],
      [statementsApi.emailWeek, support],
    ] as const) {
      const refusal = await api.refused(who, operation, emailBody(), 403);
      expect(refusal, `${operation.operationId} ${who.email}`).toEqual({
        status: 'FAILURE',
        err: messages.noPermission,
        code: 'FORBIDDEN',
      });
    }
    expect(await database.db.$count(emails)).toBe(before);
  });

  test('checks session, access and input', async ({ api, stranger, cast: { boss, outsider } }) => {
    await api.refused(anonymous, statementsApi.emailWeek, emailBody(), 401);
    await api.refused(anonymous, statementsApi.emailMonth, emailBody(), 401);
    const foreign = await api.refused(stranger, statementsApi.emailWeek, emailBody(), 403);
    expect(JSON.stringify(foreign)).not.toContain('ACT-BIG');
    await api.refused(outsider, statementsApi.emailMonth, emailBody(), 403);
    for (const bad of [
      { date: 'yesterday' },
      { activationid: '' },
      { server: undefined },
      { customerid: '' },
    ]) {
      const res = await api.call(boss, statementsApi.emailWeek, emailBody(bad));
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
  });
});

describe('saved statement view (elasticTransaction)', () => {
  test('keeps a date range saved without filters, and forgets it when reset', async ({
    api,
    cast: { boss },
  }) => {
    const save = (pref: { dateRange?: string; startDate?: string; endDate?: string }) =>
      api.ok(boss, prefsApi.save, {
        tables: [{ customerNumber: ACME, tableName: 'elasticTransaction', ...pref }],
      });
    const saved = async () =>
      (await api.ok(boss, prefsApi.list, undefined)).data.find((p) => p.tableName === 'elasticTransaction');
    await save({ dateRange: 'This week' });
    expect(await saved()).toMatchObject({ dateRange: 'This week' });
    await save({ startDate: '2026-03-01', endDate: '2026-03-31' });
    expect(await saved()).toMatchObject({ startDate: '2026-03-01', endDate: '2026-03-31' });
    await save({});
    expect(await saved()).toBeUndefined();
  });
});
